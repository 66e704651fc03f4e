// What the window asks of its platform, one side per platform (the build
// picks the file):
//   window_platform.desktop.cpp  OpenGL 3.3 core, X11's window class, the
//                                icon, the display's content scale (HiDPI)
//   window_platform.web.cpp      WebGL 2 (OpenGL ES 3), the canvas filling
//                                the page at the screen's pixel ratio
#pragma once

struct GLFWwindow;

namespace poolscope::gui::window_platform {

// Before glfwCreateWindow: the context and the window's identity.
void hints();
// The shading language of that context, for ImGui's OpenGL 3 backend.
const char* glsl_version();
// Once the window exists (its icon).
void created(GLFWwindow* window);
// Each frame, before input is read: a page's canvas follows the page.
void follow_screen(GLFWwindow* window);
// The display's scale: 2 on a 200% screen; it can change while the window is open.
float content_scale(GLFWwindow* window);

}  // namespace poolscope::gui::window_platform
