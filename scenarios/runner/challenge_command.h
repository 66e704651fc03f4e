// `poolscope challenge`: the scheduler challenges (docs/challenges.md).
//   challenge list              the shipped challenges
//   challenge check [FILE...]   every challenge on a broken pool is won by its
//                               stored schedule; none on a correct pool is won
//                               by --schedules explored schedules
//   challenge solve FILE        explores until a schedule wins; prints it
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace poolscope::runner {

struct ChallengeArgs {
  std::vector<std::string> files;  // check: default every shipped one
  int schedules = 10000;
  CLI::App *list = nullptr, *check = nullptr, *solve = nullptr;
};

CLI::App* add_challenge_command(CLI::App& app, ChallengeArgs& a);

// Exit codes: 0 all hold, 1 one does not, 2 a bad file (nothing else said of it).
int run_challenge_command(ChallengeArgs& a, const std::function<int()>& signal);

}  // namespace poolscope::runner
