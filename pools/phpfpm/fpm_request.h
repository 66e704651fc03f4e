// fpm_request.h: the stages a child's scoreboard slot shows. A child is idle
// exactly when its stage is FPM_REQUEST_ACCEPTING (fpm_request_is_idle); a
// slot just allocated is 0, so a child just forked counts as active until it
// reaches accept().
#pragma once

namespace poolscope::phpfpm {

enum fpm_request_stage_e {
  FPM_REQUEST_ACCEPTING = 1,    // "Idle"
  FPM_REQUEST_READING_HEADERS,  // "Reading headers"
  FPM_REQUEST_INFO,
  FPM_REQUEST_EXECUTING,  // "Running"
  FPM_REQUEST_END,        // "Ending"
  FPM_REQUEST_FINISHED,   // "Finishing"
};

}  // namespace poolscope::phpfpm
