import GatehouseFlows

/// The console's one script, `/console/time.js`: it shows every time (`<time datetime>`) in the
/// operator's own time zone, keeping the UTC text as the element's title. It is an improvement
/// only: without it, every page works and shows UTC. Served from the console's origin, so the
/// Content-Security-Policy (`default-src 'self'`, no inline script) admits it.
enum ConsoleScript {
    static let time = """
        "use strict";
        document.addEventListener("DOMContentLoaded", function () {
          var format = new Intl.DateTimeFormat(undefined, {
            year: "numeric", month: "short", day: "numeric",
            hour: "2-digit", minute: "2-digit", timeZoneName: "short"
          });
          document.querySelectorAll("time[datetime]").forEach(function (element) {
            var date = new Date(element.getAttribute("datetime"));
            if (isNaN(date.getTime())) { return; }
            element.title = element.textContent;
            element.textContent = format.format(date);
          });
        });
        """
}
