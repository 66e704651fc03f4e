#include "visualizer/app/window.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "scenarios/engine/data_dir.h"

namespace poolscope::gui {

namespace {

void on_glfw_error(int code, const char* text) {
  std::fprintf(stderr, "poolscope-gui: GLFW error %d: %s\n", code, text);
}

// Latin-1 plus the punctuation, arrows, maths and shapes the labels use.
const ImWchar kGlyphs[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};

// The window's icon in task bars and window switchers: the desktop entry's
// icon (assets/icons), from the installation or the source tree; none if missing.
void set_icon(GLFWwindow* window) {
  std::vector<GLFWimage> images;
  for (const char* name : {"assets/icons/poolscope-48.png", "assets/icons/poolscope-256.png"}) {
    int width = 0, height = 0, channels = 0;
    if (unsigned char* pixels = stbi_load(scenario::data_path(name).c_str(), &width, &height, &channels, 4))
      images.push_back({width, height, pixels});
  }
  if (!images.empty()) glfwSetWindowIcon(window, static_cast<int>(images.size()), images.data());
  for (const GLFWimage& image : images) stbi_image_free(image.pixels);
}

}  // namespace

void Window::on_drop(GLFWwindow* w, int count, const char** paths) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
  for (int i = 0; i < count; ++i) self->dropped_.push_back(paths[i]);
}

void Window::on_content_scale(GLFWwindow* w, float x, float /*y*/) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
  if (x > 0) self->content_scale_ = x;  // the app rescales from the next frame on
}

std::string find_font() {
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("POOLSCOPE_FONT"); env && *env) candidates.emplace_back(env);
  candidates.push_back(scenario::data_path("assets/fonts/DejaVuSans.ttf"));
  candidates.emplace_back("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
  candidates.emplace_back("/usr/share/fonts/TTF/DejaVuSans.ttf");
  for (const auto& p : candidates)
    if (std::filesystem::is_regular_file(p)) return p.string();
  return "";
}

Window::Window(const char* title, int width, int height, bool vsync) {
  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) throw std::runtime_error("cannot initialise GLFW (no display? try xvfb-run)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  // X11's WM_CLASS, which the desktop entry's StartupWMClass names, so docks
  // group the window under the menu's launcher.
  glfwWindowHintString(GLFW_X11_CLASS_NAME, "poolscope-gui");
  glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "poolscope-gui");
  window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("cannot open an OpenGL 3.3 window");
  }
  set_icon(window_);
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(vsync ? 1 : 0);
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, on_drop);
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  content_scale_ = x > 0 ? x : 1;
  glfwSetWindowContentScaleCallback(window_, on_content_scale);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is the app's, not a file's
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  ui_scale_ = content_scale();
}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_); }
void Window::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

void Window::set_ui_scale(float scale) { ui_scale_ = std::clamp(scale, 0.5f, 4.0f); }

void Window::build_fonts() {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  static const std::string font = find_font();
  ImFontConfig config;
  config.OversampleH = 2;
  if (font.empty() || !io.Fonts->AddFontFromFileTTF(font.c_str(), 16.0f * ui_scale_, &config, kGlyphs)) {
    config.SizePixels = 13.0f * ui_scale_;
    io.Fonts->AddFontDefault(&config);
  }
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  // Sizes (padding, rounding, scrollbars) follow the fonts.
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.GrabRounding = 3;
  style.Colors[ImGuiCol_PlotHistogram] = ImVec4(0.26f, 0.45f, 0.75f, 1);  // progress bars: white text stays legible
  style.ScaleAllSizes(ui_scale_);
  ImGui::GetStyle() = style;
  built_scale_ = ui_scale_;
}

void Window::begin_frame() {
  glfwPollEvents();
  if (built_scale_ != ui_scale_) build_fonts();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
}

void Window::end_frame() { ImGui::Render(); }

void Window::render() {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::present() { glfwSwapBuffers(window_); }

std::string Window::renderer() const {
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return name ? name : "";
}

std::vector<std::string> Window::take_dropped() { return std::exchange(dropped_, {}); }

void Window::pretend_dropped(const std::vector<std::string>& paths) {
  dropped_.insert(dropped_.end(), paths.begin(), paths.end());
}

Window::Image Window::read_pixels() const {
  Image img;
  glfwGetFramebufferSize(window_, &img.width, &img.height);
  std::vector<std::uint8_t> bottom_up(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, img.width, img.height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  // OpenGL's rows start at the bottom; images start at the top.
  img.rgba.resize(bottom_up.size());
  const std::size_t row = static_cast<std::size_t>(img.width) * 4;
  for (int y = 0; y < img.height; ++y)
    std::copy_n(bottom_up.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(img.height - 1 - y)),
                row, img.rgba.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(y)));
  for (std::size_t i = 3; i < img.rgba.size(); i += 4) img.rgba[i] = 255;  // the window is opaque
  return img;
}

bool Window::save_png(const std::filesystem::path& file, std::string& error) const {
  Image img = read_pixels();
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  if (!stbi_write_png(file.string().c_str(), img.width, img.height, 4, img.rgba.data(), img.width * 4)) {
    error = "cannot write " + file.string();
    return false;
  }
  return true;
}

}  // namespace poolscope::gui
