// emscripten's JavaScript-based exceptions keep the exceptions being handled
// (exceptionCaught, a stack), the last one thrown (exceptionLast) and the
// count in flight (uncaughtExceptionCount) in variables of the module, one
// set for the whole program. A fiber may switch out inside a catch block or
// while a throw unwinds through a destructor, and another fiber may throw
// meanwhile: fiber.web.cpp gives each fiber its own set, through this.
mergeInto(LibraryManager.library, {
  // Each context's set while it is switched out, by key (a fiber's backend,
  // or the context that resumed it).
  $poolscopeEhStates: 'new Map()',
  poolscope_eh_exchange__deps: ['$poolscopeEhStates', '$exceptionCaught', '$exceptionLast',
                                '$uncaughtExceptionCount'],
  poolscope_eh_exchange: function(saveKey, loadKey) {
    var saved = poolscopeEhStates.get(saveKey);
    if (saved) {
      saved.caught = exceptionCaught; saved.last = exceptionLast; saved.uncaught = uncaughtExceptionCount;
    } else {
      poolscopeEhStates.set(saveKey, {caught: exceptionCaught, last: exceptionLast, uncaught: uncaughtExceptionCount});
    }
    var s = poolscopeEhStates.get(loadKey);
    if (s) {
      exceptionCaught = s.caught; exceptionLast = s.last; uncaughtExceptionCount = s.uncaught;
      s.caught = null;  // the array is the running context's now
    } else {
      exceptionCaught = []; exceptionLast = 0; uncaughtExceptionCount = 0;
    }
  },
  // A fiber that is destroyed: its set goes too.
  poolscope_eh_forget__deps: ['$poolscopeEhStates'],
  poolscope_eh_forget: function(key) {
    poolscopeEhStates.delete(key);
  },
});
