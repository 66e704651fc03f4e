#include "visualizer/app/window.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "scenarios/engine/data_dir.h"
#include "visualizer/app/window_platform.h"

namespace poolscope::gui {

namespace {

void on_glfw_error(int code, const char* text) {
  std::fprintf(stderr, "poolscope-gui: GLFW error %d: %s\n", code, text);
}

// Latin-1 plus the punctuation, arrows, maths and shapes the labels use.
const ImWchar kGlyphs[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};

}  // namespace

void Window::on_drop(GLFWwindow* w, int count, const char** paths) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
  for (int i = 0; i < count; ++i) self->dropped_.push_back(paths[i]);
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
  window_platform::hints();
  window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("cannot open an OpenGL 3 window");
  }
  window_platform::created(window_);
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(vsync ? 1 : 0);
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, on_drop);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is the app's, not a file's
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init(window_platform::glsl_version());
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

float Window::content_scale() const { return window_platform::content_scale(window_); }

void Window::begin_frame() {
  window_platform::follow_screen(window_);
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
