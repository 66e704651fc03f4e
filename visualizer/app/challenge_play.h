// A challenge being played (docs/challenges.md): the engine's challenge
// (scenarios/engine/challenge.h) as the GUI shows it, and how far the student
// has got. The App keeps one while a challenge is open (app_challenge.cpp);
// the Scheduler panel shows its goal and hint, the win window its end.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace poolscope::scenario {
struct Challenge;
}

namespace poolscope::gui {

struct ChallengePlay {
  std::shared_ptr<const scenario::Challenge> source;  // as the engine read it: its goal is checked with it
  std::string name;         // its shipped name (what `challenge=` carries), or its file
  std::string title;        // one line
  std::string pool;         // the pool's design (or challenge pool) name
  std::string docs;         // the design's page, if it has one
  std::string goal;         // what the student must make happen, in words
  std::string hint;
  std::string explanation;  // shown on a win: the mistake and its fix (the lab's text)
  // A correct pool: no schedule reaches the goal, and the explanation says
  // what in the design prevents it.
  bool correct = false;
  // A correct pool's challenge played to the end without reaching the goal:
  // the panel then says so, and why.
  bool ended_unbroken = false;
  bool won = false;
  std::string reached;                 // on a win: what happened, in words
  std::vector<std::uint64_t> winning;  // on a win: the schedule that won
  bool win_shown = true;               // the win's window is open
};

}  // namespace poolscope::gui
