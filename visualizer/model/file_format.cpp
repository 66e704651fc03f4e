#include "visualizer/model/file_format.h"

#include <fstream>

#include "pools/core/params.h"

namespace poolscope::gui {

std::string top_format(const std::filesystem::path& file) {
  struct Sax : json::json_sax_t {
    int depth = 0;
    bool format_next = false, found = false;
    std::string format;
    bool stop(bool more) { return more && !found; }
    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool binary(binary_t&) override { return scalar(); }
    bool string(string_t& v) override {
      if (format_next) {
        format = v;
        found = true;
      }
      return scalar();
    }
    bool scalar() {
      format_next = false;
      return !found;
    }
    bool start_object(std::size_t) override {
      format_next = false;
      ++depth;
      return true;
    }
    bool end_object() override { return --depth > 0; }
    bool start_array(std::size_t) override {
      format_next = false;
      return depth++ > 0;  // a top-level array is no result
    }
    bool end_array() override { return --depth > 0; }
    bool key(string_t& k) override {
      format_next = depth == 1 && k == "format";
      return true;
    }
    bool parse_error(std::size_t, const std::string&, const json::exception&) override { return false; }
  } sax;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return "";  // (a FIFO would block the open)
  std::ifstream in(file);
  if (!in) return "";
  json::sax_parse(in, &sax);
  return sax.format;
}

bool is_result(const std::filesystem::path& file) { return top_format(file).starts_with("poolscope-result/"); }

}  // namespace poolscope::gui
