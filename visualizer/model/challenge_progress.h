// A student's progress in the scheduler challenges (docs/challenges.md): which
// challenges are won, and with which schedule. Kept between sessions by the
// platform (app/progress_store.h: a file on the desktop, the browser's local
// storage in a page) as one small JSON document:
//   {"format": "poolscope-challenge-progress/1",
//    "challenges": {"NAME": {"won": true, "schedule": "2.1.1", "decisions": 3}}}
// A document this version cannot read (damaged, another format) is set
// aside, not fatal: the student starts again, and the GUI says why.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace poolscope::gui {

inline constexpr const char* kProgressFormat = "poolscope-challenge-progress/1";

class ChallengeProgress {
 public:
  struct Entry {
    bool won = false;
    std::string schedule;    // the winning schedule, as a link's `sched=` carries it
    std::size_t decisions = 0;  // how many decisions it took
  };

  // From the kept document; "" is a first session. Unreadable: empty, and
  // `problem` says why (naming `where` and the field).
  static ChallengeProgress parse(const std::string& text, const std::string& where, std::string& problem);
  std::string to_json() const;

  // A win, kept with its schedule (the shortest of the wins so far).
  void won(const std::string& challenge, const std::string& schedule, std::size_t decisions);
  bool is_won(const std::string& challenge) const;
  const Entry* find(const std::string& challenge) const;
  std::size_t won_count() const;

 private:
  std::map<std::string, Entry> entries_;
};

}  // namespace poolscope::gui
