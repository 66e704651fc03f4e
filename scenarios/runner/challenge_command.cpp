// `poolscope challenge` (challenge_command.h).
#include "scenarios/runner/challenge_command.h"

#include <chrono>
#include <iostream>

#include "pools/core/sim/decision.h"
#include "pools/core/sim/schedule.h"
#include "scenarios/engine/challenge.h"
#include "scenarios/engine/explore.h"
#include "scenarios/engine/scenario.h"

namespace poolscope::runner {

using namespace scenario;

namespace {

constexpr int kChallengeOk = 0, kChallengeFailed = 1, kChallengeBadInput = 2;

// Schedule `i` of an exploration: seeds from 1, uniform random and PCT in turn (as `explore`).
sim::Settings explored(const Challenge& c, int i) {
  ExploreOptions o;
  return schedule_settings(c.scenario, o, i);
}

std::optional<std::string> won(const Challenge& c, const RunResult& r) {
  return goal_reached(c, r.metrics, &r.outcome);
}

int list() {
  for (const std::string& name : shipped_challenges()) {
    try {
      Challenge c = load_challenge(name);
      std::cout << name << (c.correct ? " (correct pool)" : "") << ": " << c.title << "\n";
    } catch (const std::exception& e) {
      std::cout << name << ": " << e.what() << "\n";
    }
  }
  return kChallengeOk;
}

// One challenge: "" if it holds, else why not.
std::string check_one(const Challenge& c, int schedules, const std::function<int()>& signal) {
  if (!c.correct) {
    if (!c.solution)
      return "no stored winning schedule (/solution): a challenge on a broken pool ships one "
             "(`poolscope challenge solve` finds one)";
    std::string replay_error;
    RunResult r = play_challenge(c, *c.solution, &replay_error);
    if (!replay_error.empty()) return "its stored schedule does not fit the run: " + replay_error;
    if (auto how = won(c, r)) {
      std::cout << "  won by its stored schedule (" << c.solution->picks.size() << " picks): " << *how << "\n";
      return "";
    }
    return "its stored schedule no longer reaches the goal (" + c.goal.describe() + ")";
  }
  for (int i = 0; i < schedules && !signal(); ++i) {
    RunOptions o;
    o.simulation = explored(c, i);
    RunResult r = run_scenario(c.scenario, o);
    if (auto how = won(c, r))
      return "schedule " + std::to_string(i + 1) + " (seed " + std::to_string(o.simulation->seed) + ", " +
             std::string(sim::to_string(o.simulation->policy)) + ") reached the goal on a pool said to be correct: " +
             *how;
  }
  std::cout << "  not won by " << schedules << " explored schedules\n";
  return "";
}

int check(const std::vector<std::string>& given, int schedules, const std::function<int()>& signal) {
  std::vector<std::string> files = given.empty() ? shipped_challenges() : given;
  int failed = 0, bad = 0;
  for (const std::string& f : files) {
    Challenge c;
    try {
      c = load_challenge(f);
    } catch (const ConfigError& e) {
      std::cerr << "poolscope: " << e.what() << "\n";
      ++bad;
      continue;
    }
    std::cout << c.name << " (" << c.pool << ", goal: " << c.goal.describe() << ")\n";
    const auto started = std::chrono::steady_clock::now();
    std::string why = check_one(c, schedules, signal);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!why.empty()) {
      std::cout << "  FAIL: " << why << "\n";
      ++failed;
    } else {
      std::cout << "  ok (" << static_cast<int>(wall * 1000) << " ms)\n";
    }
  }
  std::cout << files.size() - static_cast<std::size_t>(bad) << " challenges checked, " << failed << " failed\n";
  if (bad) return kChallengeBadInput;
  if (signal()) return 128 + signal();
  return failed ? kChallengeFailed : kChallengeOk;
}

// Explores until a schedule wins, then prints it as the challenge's "solution".
int solve(const std::string& file, int schedules, const std::function<int()>& signal) {
  Challenge c = load_challenge(file);
  for (int i = 0; i < schedules && !signal(); ++i) {
    RunOptions o;
    o.simulation = explored(c, i);
    sim::Stepper record({}, sim::Stepper::After::policy);
    o.chooser = &record;
    RunResult r = run_scenario(c.scenario, o);
    if (auto how = won(c, r)) {
      ScheduleSpec s;
      s.seed = o.simulation->seed;
      s.policy = std::string(sim::to_string(o.simulation->policy));
      s.picks = r.outcome.simulation->schedule.value_or(std::vector<std::uint64_t>{});
      json j = schedule_json(s);
      j.erase("format");
      std::cout << c.name << ": schedule " << i + 1 << " wins: " << *how << "\n\"solution\": " << j.dump() << "\n";
      return kChallengeOk;
    }
  }
  std::cout << c.name << ": no schedule of " << schedules << " reached the goal (" << c.goal.describe() << ")\n";
  return kChallengeFailed;
}

}  // namespace

CLI::App* add_challenge_command(CLI::App& app, ChallengeArgs& a) {
  auto* cmd = app.add_subcommand("challenge", "the scheduler challenges: list, check, solve (docs/challenges.md)");
  cmd->require_subcommand(1);
  a.list = cmd->add_subcommand("list", "list the shipped challenges");
  a.check = cmd->add_subcommand("check", "prove each challenge: a broken pool's is won by its stored schedule, "
                                         "a correct pool's by no explored schedule");
  a.check->add_option("FILE", a.files, "challenge files or shipped names (default: every shipped challenge)");
  a.check->add_option("--schedules", a.schedules, "schedules explored per correct pool, in [1, 1000000]")
      ->check(CLI::Range(1, 1'000'000));
  a.solve = cmd->add_subcommand("solve", "explore until a schedule wins; print it as the challenge's solution");
  a.solve->add_option("FILE", a.files, "a challenge file or shipped name")->required()->expected(1);
  a.solve->add_option("--schedules", a.schedules, "how many schedules at most, in [1, 1000000]")
      ->check(CLI::Range(1, 1'000'000));
  return cmd;
}

int run_challenge_command(ChallengeArgs& a, const std::function<int()>& signal) {
  if (*a.list) return list();
  if (*a.solve) return solve(a.files.front(), a.schedules, signal);
  return check(a.files, a.schedules, signal);
}

}  // namespace poolscope::runner
