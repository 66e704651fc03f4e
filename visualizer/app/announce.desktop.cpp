#include "visualizer/app/announce.h"

namespace poolscope::gui {

void announce(const std::string&, bool) {}
void announce_state(const std::string&, const std::string&) {}

}  // namespace poolscope::gui
