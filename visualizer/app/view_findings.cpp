// The Findings tab: what the runner's rules named in the run
// (docs/findings.md), one entry each; a click shows the finding's range on
// the timeline with a margin, selects it (the range statistics window), and
// in a replay moves the cursor to its end so the range is drawn.
#include "visualizer/app/draw.h"
#include "visualizer/app/views.h"

namespace poolscope::gui {

void FindingsView::update(Context& cx) {
  const void* source = nullptr;
  if (cx.replay) {
    source = &cx.replay->file();
    if (source != source_) cx.ui.findings = findings::findings_from_json(cx.replay->file().findings);
  } else if (cx.live && cx.live->run() && cx.live->state() == LiveSession::State::finished) {
    scenario::Run* run = cx.live->run();
    source = run;
    if (source != source_) cx.ui.findings = findings::find(run->outcome(), run->metrics());
  } else {
    cx.ui.findings.clear();  // a live run names its findings when it has ended
  }
  if (source != source_) cx.ui.finding_selected.reset();
  source_ = source;
  if (cx.ui.finding_request && *cx.ui.finding_request < cx.ui.findings.size()) {
    show(cx, *cx.ui.finding_request);
    cx.ui.finding_request.reset();
  }
}

void FindingsView::show(Context& cx, std::size_t i) {
  Ui& ui = cx.ui;
  const findings::Finding& f = ui.findings[i];
  ui.finding_selected = i;
  // A margin of a fifth of the range each side (at least 50 ms), so its edges show.
  const double pad = std::max(0.2 * static_cast<double>(f.to - f.from), 50e6);
  ui.axis.set_follow(false);
  ui.axis.set_view(std::max(0.0, static_cast<double>(f.from) - pad), static_cast<double>(f.to) + pad);
  ui.range = {f.from, f.to};
  if (cx.replay && cx.frame.now < f.to) cx.replay->seek(f.to);
}

void FindingsView::draw(Context& cx) {
  Ui& ui = cx.ui;
  if (ui.findings.empty()) {
    ImGui::TextWrapped("%s", cx.live && cx.live->state() != LiveSession::State::finished
                                 ? "The findings are named when the run ends (docs/findings.md)."
                                 : "No finding: no rule of docs/findings.md fired in this run.");
    return;
  }
  ImGui::TextDisabled("click one to show its range on the timeline (docs/findings.md)");
  for (std::size_t i = 0; i < ui.findings.size(); ++i) {
    const findings::Finding& f = ui.findings[i];
    ImGui::PushID(static_cast<int>(i));
    const std::string head = f.pool + ": " + f.rule + "   " + plot::format_time(static_cast<double>(f.from)) + " - " +
                             plot::format_time(static_cast<double>(f.to));
    if (ImGui::Selectable(head.c_str(), ui.finding_selected == i)) show(cx, i);
    ImGui::Indent();
    ImGui::TextWrapped("%s", f.summary.c_str());
    ImGui::TextDisabled("why:");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", f.why.c_str());
    if (!f.parameter.empty()) {
      ImGui::TextDisabled("parameter:");
      ImGui::SameLine();
      ImGui::TextWrapped("%s", f.parameter.c_str());
    }
    ImGui::Unindent();
    ImGui::Spacing();
    ImGui::PopID();
  }
}

}  // namespace poolscope::gui
