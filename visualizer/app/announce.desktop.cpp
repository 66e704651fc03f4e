#include "visualizer/app/announce.h"

namespace poolscope::gui {

void announce(const std::string&, bool) {}

}  // namespace poolscope::gui
