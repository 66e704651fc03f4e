#include "visualizer/app/hand_over.h"

namespace poolscope::gui {

std::string hand_over(const std::filesystem::path& file) { return "written to " + file.string(); }

}  // namespace poolscope::gui
