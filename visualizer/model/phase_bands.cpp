#include "visualizer/model/phase_bands.h"

#include "pools/core/duration.h"

namespace poolscope::gui {

std::vector<PhaseBand> phase_bands(const json& doc) {
  std::vector<PhaseBand> bands;
  std::int64_t t = 0;
  if (doc.is_object() && doc.contains("phases") && doc["phases"].is_array())
    for (const json& ph : doc["phases"]) {
      if (!ph.is_object() || !ph.contains("duration") || !ph["duration"].is_string()) break;
      auto d = parse_duration(ph["duration"].get<std::string>());
      if (!d) break;
      PhaseBand band;
      band.name = ph.value("name", "");
      if (ph.contains("arrival") && ph["arrival"].is_object()) band.kind = ph["arrival"].value("kind", "");
      band.start = t;
      band.end = t += d->count();
      bands.push_back(std::move(band));
    }
  return bands;
}

}  // namespace poolscope::gui
