// The window: GLFW, an OpenGL 3 context (WebGL 2 in a page), Dear ImGui with
// its GLFW and OpenGL 3 backends, the fonts at the UI's scale, and reading the
// rendered pixels back for screenshots. What differs by platform is in
// window_platform.h.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

struct GLFWwindow;

namespace poolscope::gui {

class Window {
 public:
  // Opens a window of `width` x `height` screen units. Throws std::runtime_error if that fails.
  Window(const char* title, int width, int height, bool vsync);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  bool should_close() const;
  void request_close();
  // Polls events and starts an ImGui frame; rebuilds the fonts first if the scale changed.
  void begin_frame();
  // Ends the ImGui frame: its draw lists are complete.
  void end_frame();
  // Draws them into the back buffer (call read_pixels() after this for a screenshot).
  void render();
  void present();

  // The display's content scale (HiDPI: 2 on a 200% screen); it follows the
  // window to another monitor, or a change of the desktop's scale.
  float content_scale() const;
  // The UI scale the fonts and sizes are built for; changes take effect at the next frame.
  void set_ui_scale(float scale);
  float ui_scale() const { return ui_scale_; }

  // The OpenGL renderer ("llvmpipe (LLVM 15.0.6, 256 bits)" when Mesa draws in software).
  std::string renderer() const;
  bool software_renderer() const {
    return renderer().find("llvmpipe") != std::string::npos || renderer().find("softpipe") != std::string::npos;
  }

  // Files dropped onto the window since the last call.
  std::vector<std::string> take_dropped();
  // As if these files were dropped (the headless --drop).
  void pretend_dropped(const std::vector<std::string>& paths);

  struct Image {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;  // top row first
  };
  Image read_pixels() const;
  // Writes the last rendered frame as a PNG. Returns false (with `error`) on failure.
  bool save_png(const std::filesystem::path& file, std::string& error) const;

 private:
  void build_fonts();
  static void on_drop(GLFWwindow* w, int count, const char** paths);

  GLFWwindow* window_ = nullptr;
  float ui_scale_ = 1, built_scale_ = 0;
  std::vector<std::string> dropped_;
};

// A font with the glyphs the GUI writes (µ, ×, →, ≥, ▲ ...): DejaVu Sans from
// $POOLSCOPE_FONT, assets/fonts or the system; empty if none is found (ImGui's
// built-in font is used then).
std::string find_font();

}  // namespace poolscope::gui
