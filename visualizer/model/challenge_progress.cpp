#include "visualizer/model/challenge_progress.h"

#include "pools/core/params.h"

namespace poolscope::gui {

ChallengeProgress ChallengeProgress::parse(const std::string& text, const std::string& where, std::string& problem) {
  ChallengeProgress p;
  problem.clear();
  if (text.empty()) return p;
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    problem = where + ": not a JSON object: the challenges' progress starts again";
    return p;
  }
  if (doc.value("format", "") != kProgressFormat) {
    problem = where + ": format: expected \"" + std::string(kProgressFormat) +
              "\": the challenges' progress starts again";
    return p;
  }
  const auto it = doc.find("challenges");
  if (it == doc.end() || !it->is_object()) {
    problem = where + ": challenges: expected an object of challenges by name: the progress starts again";
    return p;
  }
  for (const auto& [name, e] : it->items()) {
    // One damaged entry is left out; the others are kept.
    if (!e.is_object() || !e.value("won", false)) continue;
    const auto schedule = e.find("schedule");
    const auto decisions = e.find("decisions");
    if (schedule == e.end() || !schedule->is_string() || decisions == e.end() || !decisions->is_number_unsigned()) {
      problem = where + ": challenges." + name + ": expected \"schedule\" (a string) and \"decisions\" (a count)";
      continue;
    }
    p.entries_[name] = {true, schedule->get<std::string>(), decisions->get<std::size_t>()};
  }
  return p;
}

std::string ChallengeProgress::to_json() const {
  json challenges = json::object();
  for (const auto& [name, e] : entries_)
    challenges[name] = {{"won", e.won}, {"schedule", e.schedule}, {"decisions", e.decisions}};
  return json{{"format", kProgressFormat}, {"challenges", challenges}}.dump(2) + "\n";
}

void ChallengeProgress::won(const std::string& challenge, const std::string& schedule, std::size_t decisions) {
  Entry& e = entries_[challenge];
  if (e.won && e.decisions <= decisions) return;  // the shorter win stays
  e = {true, schedule, decisions};
}

bool ChallengeProgress::is_won(const std::string& challenge) const {
  const Entry* e = find(challenge);
  return e && e->won;
}

const ChallengeProgress::Entry* ChallengeProgress::find(const std::string& challenge) const {
  const auto it = entries_.find(challenge);
  return it == entries_.end() ? nullptr : &it->second;
}

std::size_t ChallengeProgress::won_count() const {
  std::size_t n = 0;
  for (const auto& [name, e] : entries_) n += e.won;
  return n;
}

}  // namespace poolscope::gui
