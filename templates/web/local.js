// Shows every date on the page in the reader's own time zone. Without
// JavaScript the page shows UTC, which this keeps in the title.
(function () {
  "use strict";
  function run() {
    var fmt;
    try {
      // In the page's language: a Russian page writes its dates in
      // Russian whatever the browser's own language.
      fmt = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
        weekday: "short", day: "numeric", month: "short", year: "numeric",
        hour: "2-digit", minute: "2-digit", timeZoneName: "short"
      });
    } catch (e) {
      return;
    }
    var times = document.querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var t = times[i];
      if (t.hasAttribute("data-zoned")) {
        continue; // written by the server in the reader's own zone and language
      }
      var d = new Date(t.getAttribute("datetime"));
      if (isNaN(d.getTime())) {
        continue;
      }
      t.title = t.textContent;
      t.textContent = fmt.format(d);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", run);
  } else {
    run();
  }
})();
