#include "visualizer/app/window_platform.h"

#include <GLFW/glfw3.h>
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

namespace poolscope::gui::window_platform {

namespace {

// The canvas's pixels: its size on the page (the page's style sheet makes it
// fill the page) times the screen's pixel ratio, so text is sharp on a HiDPI
// screen. GLFW's own glfwSetWindowSize is not used: at the screen's exact
// size it asks for full screen. The mouse arrives in canvas pixels too.
// clang-format off
EM_JS(void, fit_canvas, (double ratio), {
  var canvas = Module['canvas'];
  var box = canvas.getBoundingClientRect();
  var w = Math.max(1, Math.round(box.width * ratio)), h = Math.max(1, Math.round(box.height * ratio));
  if (canvas.width == w && canvas.height == h) return;
  Browser.setCanvasSize(w, h);
  if (GLFW.active) { GLFW.active.width = w; GLFW.active.height = h; }
});
// clang-format on

}  // namespace

// WebGL 2 is OpenGL ES 3 (emscripten makes a WebGL 2 context where the browser has one).
void hints() { glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API); }

const char* glsl_version() { return "#version 300 es"; }

void created(GLFWwindow* window) { follow_screen(window); }  // (a page has no window icon)

void follow_screen(GLFWwindow*) { fit_canvas(emscripten_get_device_pixel_ratio()); }

float content_scale(GLFWwindow*) { return static_cast<float>(emscripten_get_device_pixel_ratio()); }

}  // namespace poolscope::gui::window_platform
