#if Inspector
@_spi(StreamsInspectorSupport) import Streams
/// The script of the inspector's HTML page (see `Inspector.exportHTML(title:)`).
///
/// - Zoom: each `.timeline` starts fitted to its box's width (the whole recorded time span in
///   view), with −, Fit and + buttons above it, Ctrl/⌘ + wheel and the `-`, `0` and `+` keys
///   over it; zoomed in, the box scrolls sideways. Only positions scale: marbles and text keep
///   their size, and labels that would overlap are hidden (the hover text and the panel keep them).
/// - Hover: a marble's tooltip, on hover or keyboard focus, shows its whole recorded value (its
///   `<title>`, the no-script fallback cut to 240 characters, becomes its `aria-label`).
/// - Detail: clicking a marble, or Return or Space on a focused one, shows its event in the
///   `#detail` panel: its label, kind, time, thread, chain, where the chain was subscribed and the
///   whole recorded value. Escape closes it and returns the focus to the marble.
enum InspectorPageScript {
    static let source = #"""
        (function () {
          "use strict";
          var data = JSON.parse(document.getElementById("inspector-data").textContent);
          var events = data.events || [];
          var chains = {};
          ((data.snapshot && data.snapshot.chains) || []).forEach(function (chain) { chains[chain.id] = chain; });
          function seconds(time) { return (time * 1000).toFixed(1) + "ms"; }
          function element(tag, className, text) {
            var node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined) node.textContent = text;
            return node;
          }

          document.querySelectorAll(".timeline").forEach(function (box) {
            var svg = box.querySelector("svg.marble-timeline");
            if (!svg || !svg.dataset.plotLeft) return;
            var left = parseFloat(svg.dataset.plotLeft);
            var width = parseFloat(svg.getAttribute("width"));
            var height = svg.getAttribute("height");
            var placed = Array.prototype.slice.call(svg.querySelectorAll("[data-x]"));
            var axes = svg.querySelectorAll("[data-x2]");
            var spans = svg.querySelectorAll("rect[data-w]");
            var times = svg.querySelectorAll("text.time");
            var lanes = Array.prototype.map.call(svg.querySelectorAll("g.lane"), function (lane) {
              return Array.prototype.map.call(lane.querySelectorAll("text.label"), function (label) {
                return { node: label, x: parseFloat(label.parentNode.dataset.x), width: label.textContent.length * 7.2 };
              }).sort(function (a, b) { return a.x - b.x; });
            });
            var toolbar = element("div", "zoom");
            toolbar.setAttribute("role", "toolbar");
            toolbar.setAttribute("aria-label", "Zoom the time axis");
            [["out", "\u2212", "Zoom out (Ctrl/\u2318 + wheel, -)"], ["fit", "Fit", "Fit the whole time span to the width (0)"],
             ["in", "+", "Zoom in (Ctrl/\u2318 + wheel, +)"]].forEach(function (spec) {
              var button = element("button", "", spec[1]);
              button.type = "button";
              button.dataset.zoom = spec[0];
              button.title = spec[2];
              button.setAttribute("aria-label", spec[2]);
              toolbar.appendChild(button);
            });
            var level = element("span", "level");
            level.setAttribute("aria-live", "polite");
            toolbar.appendChild(level);
            box.parentNode.insertBefore(toolbar, box);
            var zoom = 1;
            function fit() { return Math.min(1, Math.max(0.005, (box.clientWidth - left - 4) / Math.max(width - left, 1))); }
            function X(x) { return left + (x - left) * zoom; }
            function thin(items, gap) {
              var last = null;
              items.forEach(function (item) {
                var x = X(item.x);
                var show = last === null || x - last.x >= (last.width + item.width) / 2 + gap;
                item.node.style.visibility = show ? "" : "hidden";
                if (show) last = { x: x, width: item.width };
              });
            }
            var timeItems = Array.prototype.map.call(times, function (time) {
              return { node: time, x: parseFloat(time.dataset.x), width: time.textContent.length * 6 };
            });
            var breaks = Array.prototype.map.call(svg.querySelectorAll("g.lane"), function (lane) {
              return Array.prototype.map.call(lane.querySelectorAll("path.break"), function (mark) {
                return { node: mark, x: parseFloat(mark.dataset.x), width: 10 };
              });
            });
            function apply() {
              placed.forEach(function (node) {
                var x = parseFloat(node.dataset.x);
                node.setAttribute("transform", "translate(" + (X(x) - x).toFixed(1) + ",0)");
              });
              axes.forEach(function (axis) { axis.setAttribute("x2", X(parseFloat(axis.dataset.x2)).toFixed(1)); });
              spans.forEach(function (span) { span.setAttribute("width", Math.max(2, parseFloat(span.dataset.w) * zoom).toFixed(1)); });
              var drawn = X(width).toFixed(1);
              svg.setAttribute("width", drawn);
              svg.setAttribute("viewBox", "0 0 " + drawn + " " + height);
              thin(timeItems, 8);
              lanes.forEach(function (labels) { thin(labels, 4); });
              breaks.forEach(function (marks) { thin(marks, 20); });
              level.textContent = Math.round(zoom * 100) + "%";
              svg.dataset.zoom = zoom.toFixed(4);
            }
            function set(value, clientX) {
              var before = zoom;
              var bounds = box.getBoundingClientRect();
              var offset = clientX === undefined ? box.clientWidth / 2 : clientX - bounds.left;
              var at = box.scrollLeft + offset;
              zoom = Math.min(16, Math.max(fit(), value));
              apply();
              box.scrollLeft = at > left ? left + (at - left) * zoom / before - offset : 0;
            }
            toolbar.addEventListener("click", function (event) {
              var button = event.target.closest("button");
              if (!button) return;
              if (button.dataset.zoom === "in") set(zoom * 1.5);
              else if (button.dataset.zoom === "out") set(zoom / 1.5);
              else { set(fit()); box.scrollLeft = 0; }
            });
            box.addEventListener("wheel", function (event) {
              if (!event.ctrlKey && !event.metaKey) return;
              event.preventDefault();
              set(zoom * Math.exp(-event.deltaY * 0.002), event.clientX);
            }, { passive: false });
            box.addEventListener("keydown", function (event) {
              if (event.key === "+" || event.key === "=") set(zoom * 1.5);
              else if (event.key === "-") set(zoom / 1.5);
              else if (event.key === "0") { set(fit()); box.scrollLeft = 0; }
            });
            zoom = fit();
            apply();
          });

          function heading(event) {
            return (event.label || event.operatorName) + " \u00b7 " + event.kind + " at " + seconds(event.time) + " on " + event.thread;
          }
          // Hover and focus: a tooltip with the whole value (the marks' <title>s become their names).
          var hover = document.getElementById("hover");
          document.querySelectorAll("[data-event]").forEach(function (mark) {
            var title = mark.querySelector("title");
            if (!title) return;
            mark.setAttribute("aria-label", title.textContent);
            mark.removeChild(title);
          });
          function tip(mark) {
            var event = events[parseInt(mark.dataset.event, 10)];
            if (!event || !hover) return;
            hover.textContent = "";
            hover.appendChild(element("div", "heading", heading(event)));
            if (event.value !== undefined && event.value !== null) hover.appendChild(element("pre", "value", event.value));
            hover.hidden = false;
            var bounds = mark.getBoundingClientRect();
            var x = Math.min(bounds.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - hover.offsetWidth - 8);
            hover.style.left = Math.max(window.scrollX + 4, x) + "px";
            hover.style.top = (bounds.bottom + window.scrollY + 6) + "px";
          }
          function untip() { if (hover) hover.hidden = true; }
          document.addEventListener("mouseover", function (event) {
            var mark = event.target.closest && event.target.closest("[data-event]");
            if (mark) tip(mark); else untip();
          });
          document.addEventListener("focusin", function (event) {
            var mark = event.target.closest && event.target.closest("[data-event]");
            if (mark) tip(mark); else untip();
          });
          document.addEventListener("focusout", untip);

          var panel = document.getElementById("detail");
          var selected = null;
          function close() {
            panel.hidden = true;
            if (selected) { selected.classList.remove("selected"); selected.focus(); }
            selected = null;
          }
          function show(mark) {
            var event = events[parseInt(mark.dataset.event, 10)];
            if (!event || !panel) return;
            if (selected) selected.classList.remove("selected");
            selected = mark;
            mark.classList.add("selected");
            panel.textContent = "";
            var closer = element("button", "close", "\u00d7");
            closer.type = "button";
            closer.setAttribute("aria-label", "Close (Escape)");
            closer.addEventListener("click", close);
            panel.appendChild(closer);
            panel.appendChild(element("h3", "", heading(event)));
            panel.appendChild(element("p", "when", "chain " + event.chain + ", at the output of " + event.operatorName));
            var chain = chains[event.chain];
            var site = chain && chain.callSites && chain.callSites[0];
            if (site) {
              var where = site.function || [site.image, site.address].filter(Boolean).join(" ");
              if (site.file && site.line) where += " at " + site.file.split("/").pop() + ":" + site.line;
              if (site.missing) where += " (" + site.missing + ")";
              panel.appendChild(element("p", "where", "subscribed from " + where));
            }
            if (event.value !== undefined && event.value !== null) {
              panel.appendChild(element("pre", "value", event.value));
            } else {
              panel.appendChild(element("p", "value-none", "(no value: completion)"));
            }
            panel.hidden = false;
            untip();
          }
          document.addEventListener("click", function (event) {
            var mark = event.target.closest && event.target.closest("[data-event]");
            if (mark) show(mark);
          });
          document.addEventListener("keydown", function (event) {
            if (event.key === "Escape" && panel && !panel.hidden) { close(); return; }
            var mark = document.activeElement;
            if (mark && mark.dataset && mark.dataset.event !== undefined && (event.key === "Enter" || event.key === " ")) {
              event.preventDefault();
              show(mark);
            }
          });
          document.documentElement.dataset.timelineReady = "1";
        })();

        """#
}
#endif
