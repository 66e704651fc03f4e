// `poolscope lesson`: check a lesson and print its answer key, list the
// shipped lessons, write a student's answers as the GUI saves them (a paper
// quiz typed in), grade saved answers (docs/lessons.md).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace poolscope::runner {

struct LessonArgs {
  std::vector<std::string> files;  // check: lessons (files or shipped names); empty: every shipped one
  std::string answers;             // grade: the answers document
  std::string json_out;            // check, grade: where the JSON goes ("-": stdout)
  std::string format = "gradescope";
  bool list_json = false;
  std::string lesson, student;     // answer: the lesson, the student's name
  std::vector<std::string> steps;  // answer: "N=VALUE", one per question or try answered
  CLI::App *check = nullptr, *list = nullptr, *grade = nullptr, *answer = nullptr;
};

// Adds `lesson` and its subcommands to `app`.
CLI::App* add_lesson_command(CLI::App& app, LessonArgs& a);

// Exit codes: 0 every lesson checks; 1 a lesson's check failed (its answer
// key says where); 2 bad input (a malformed lesson: the file, the step and
// the field), nothing written.
int run_lesson(const LessonArgs& a);

}  // namespace poolscope::runner
