// emscripten's JavaScript-based exceptions keep the exceptions being handled
// (exceptionCaught, a stack), the last one thrown (exceptionLast) and the
// count in flight (uncaughtExceptionCount) in variables of the module, one
// set for the whole program. A fiber may switch out inside a catch block or
// while a throw unwinds through a destructor, and another fiber may throw
// meanwhile: fiber.web.cpp gives each fiber its own set, through this.
mergeInto(LibraryManager.library, {
  $poolscopeEhStates: {},
  poolscope_eh_exchange__deps: ['$poolscopeEhStates', '$exceptionCaught', '$exceptionLast',
                                '$uncaughtExceptionCount'],
  poolscope_eh_exchange: function(saveKey, loadKey) {
    poolscopeEhStates[saveKey] = [exceptionCaught, exceptionLast, uncaughtExceptionCount];
    var s = poolscopeEhStates[loadKey];
    delete poolscopeEhStates[loadKey];
    if (s) {
      exceptionCaught = s[0]; exceptionLast = s[1]; uncaughtExceptionCount = s[2];
    } else {
      exceptionCaught = []; exceptionLast = 0; uncaughtExceptionCount = 0;
    }
  },
  // A fiber that is destroyed: its set, kept since its last switch, goes too.
  poolscope_eh_forget__deps: ['$poolscopeEhStates'],
  poolscope_eh_forget: function(key) {
    delete poolscopeEhStates[key];
  },
});
