#include "visualizer/app/window_platform.h"

#include <GLFW/glfw3.h>
#include <stb_image.h>

#include <vector>

#include "scenarios/engine/data_dir.h"

namespace poolscope::gui::window_platform {

void hints() {
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  // X11's WM_CLASS, which the desktop entry's StartupWMClass names, so docks
  // group the window under the menu's launcher.
  glfwWindowHintString(GLFW_X11_CLASS_NAME, "poolscope-gui");
  glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "poolscope-gui");
}

const char* glsl_version() { return "#version 330 core"; }

// The window's icon in task bars and window switchers: the desktop entry's
// icon (assets/icons), from the installation or the source tree; none if missing.
void created(GLFWwindow* window) {
  std::vector<GLFWimage> images;
  for (const char* name : {"assets/icons/poolscope-48.png", "assets/icons/poolscope-256.png"}) {
    int width = 0, height = 0, channels = 0;
    if (unsigned char* pixels = stbi_load(scenario::data_path(name).c_str(), &width, &height, &channels, 4))
      images.push_back({width, height, pixels});
  }
  if (!images.empty()) glfwSetWindowIcon(window, static_cast<int>(images.size()), images.data());
  for (const GLFWimage& image : images) stbi_image_free(image.pixels);
}

void follow_screen(GLFWwindow*) {}  // the window manager sizes the window

float content_scale(GLFWwindow* window) {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window, &x, &y);  // follows the window to another monitor
  return x > 0 ? x : 1;
}

}  // namespace poolscope::gui::window_platform
