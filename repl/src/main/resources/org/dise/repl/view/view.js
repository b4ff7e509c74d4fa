// acf view: lays out the run embedded in #acf-data (HtmlView.java): the cost report, a flame
// graph per profile with stacks (click a frame to zoom, search to highlight), sortable tables,
// and the sampled intervals' timeline. Written for this page alone; it loads nothing.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("acf-data").textContent);

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function fmt(n) { return Number(n).toLocaleString("en-US"); }
  function pct(v, total) { return total > 0 ? (100 * v / total).toFixed(2) + "%" : "-"; }
  function color(name) {
    var h = 0;
    for (var i = 0; i < name.length; i++) { h = (h * 31 + name.charCodeAt(i)) | 0; }
    var r = 205 + ((h % 50) + 50) % 50, g = 80 + (((h >> 8) % 120) + 120) % 120,
        b = 40 + (((h >> 16) % 40) + 40) % 40;
    return "rgb(" + r + "," + g + "," + b + ")";
  }
  function id(name) { return "p-" + name.replace(/[^A-Za-z0-9_-]/g, "_"); }

  document.title = "acf: " + data.title;
  document.body.appendChild(el("h1", {}, "acf run: " + data.title));
  var nav = el("nav");
  document.body.appendChild(nav);
  function section(anchor, title) {
    var a = el("a", { href: "#" + anchor }, title);
    nav.appendChild(a);
    var s = el("section", { id: anchor });
    s.appendChild(el("h2", {}, title));
    document.body.appendChild(s);
    return s;
  }

  // ---- cost report ----
  if (data.cost.length) {
    var cs = section("cost", "Cost");
    cs.appendChild(el("pre", { "class": "cost" }, data.cost.join("\n")));
  }

  // ---- flame graphs ----
  function tree(samples, index) {
    var root = { name: "all", value: 0, children: {}, parent: null, depth: 0 };
    var maxDepth = 0;
    samples.forEach(function (s) {
      var v = s[1][index];
      if (!(v > 0)) { return; }
      root.value += v;
      var n = root;
      s[0].forEach(function (f) {
        var c = n.children[f];
        if (!c) { c = n.children[f] = { name: f, value: 0, children: {}, parent: n, depth: n.depth + 1 }; }
        c.value += v;
        n = c;
      });
      maxDepth = Math.max(maxDepth, s[0].length);
    });
    root.maxDepth = maxDepth;
    return root;
  }
  function sorted(n) {
    return Object.keys(n.children).map(function (k) { return n.children[k]; })
      .sort(function (a, b) { return b.value - a.value || (a.name < b.name ? -1 : 1); });
  }

  function flameGraph(parent, p) {
    var box = el("div", { "class": "flamewrap" });
    var controls = el("div", { "class": "controls" });
    var select = el("select", { "aria-label": "value" });
    p.stacks.types.forEach(function (t, i) { select.appendChild(el("option", { value: i }, t)); });
    var search = el("input", { type: "search", placeholder: "search (regular expression)" });
    var reset = el("button", {}, "reset zoom");
    controls.appendChild(el("span", {}, "weight "));
    controls.appendChild(select);
    controls.appendChild(search);
    controls.appendChild(reset);
    var graph = el("div", { "class": "flamegraph", "data-profile": p.name, role: "img",
      "aria-label": "flame graph of " + p.name });
    var status = el("div", { "class": "status" });
    box.appendChild(controls);
    box.appendChild(graph);
    box.appendChild(status);
    parent.appendChild(box);
    var root, zoom, row = 17;

    function draw() {
      graph.innerHTML = "";
      var height = (root.maxDepth + 1) * row;
      graph.style.height = height + "px";
      var width = graph.clientWidth || 1000;
      var unit = p.stacks.types[select.value];
      function frame(n, x, w) {
        if (w * width < 0.5) { return; }
        var d = el("div", { "class": "frame", title: n.name + ": " + fmt(n.value) + " " + unit
          + " (" + pct(n.value, root.value) + ")" }, w * width > 30 ? n.name : "");
        d.style.left = (100 * x) + "%";
        d.style.width = (100 * w) + "%";
        d.style.top = (height - (n.depth + 1) * row) + "px";
        d.style.background = color(n.name);
        d.dataset.name = n.name;
        d.addEventListener("click", function () { zoom = n; draw(); });
        graph.appendChild(d);
        var cx = x;
        sorted(n).forEach(function (c) {
          var cw = w * c.value / n.value;
          frame(c, cx, cw);
          cx += cw;
        });
      }
      // The zoomed frame's ancestors span the width; its subtree fills it.
      for (var a = zoom.parent; a; a = a.parent) {
        var d = el("div", { "class": "frame", title: a.name }, a.name);
        d.style.left = "0%"; d.style.width = "100%";
        d.style.top = (height - (a.depth + 1) * row) + "px";
        d.style.background = "#ddd";
        (function (target) { d.addEventListener("click", function () { zoom = target; draw(); }); })(a);
        graph.appendChild(d);
      }
      if (root.value > 0) { frame(zoom, 0, 1); }
      highlight();
    }
    function highlight() {
      var q = search.value, re = null;
      try { re = q ? new RegExp(q) : null; } catch (e) { status.textContent = "bad expression"; return; }
      var matched = 0;
      if (re) {
        // Count each matching subtree once: do not descend below a match.
        (function walk(n) {
          if (n !== root && re.test(n.name)) { matched += n.value; return; }
          sorted(n).forEach(walk);
        })(root);
      }
      graph.querySelectorAll(".frame").forEach(function (f) {
        f.classList.toggle("match", !!re && re.test(f.dataset.name || ""));
      });
      status.textContent = fmt(root.value) + " " + p.stacks.types[select.value] + " in all"
        + (zoom !== root ? "; zoomed to " + zoom.name + ", " + pct(zoom.value, root.value) : "")
        + (re ? "; matched " + fmt(matched) + " (" + pct(matched, root.value) + ")" : "");
    }
    function rebuild() { root = tree(p.stacks.samples, +select.value); zoom = root; draw(); }
    select.addEventListener("change", rebuild);
    search.addEventListener("input", highlight);
    reset.addEventListener("click", function () { zoom = root; draw(); });
    window.addEventListener("resize", draw);
    rebuild();
  }

  // ---- tables ----
  var NUMBER = /^-?\d+(\.\d+)?$/, HEX = /^0x[0-9a-fA-F]+$/;
  function compare(a, b) {
    if (NUMBER.test(a) && NUMBER.test(b)) { return parseFloat(a) - parseFloat(b); }
    if (HEX.test(a) && HEX.test(b)) { return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0); }
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function table(parent, p) {
    var w = p.columns.indexOf(p.weight);
    var columns = p.columns.slice();
    columns.splice(w + 1, 0, "%");
    var rows = p.rows.map(function (r) {
      var c = r.slice();
      c.splice(w + 1, 0, p.total > 0 ? (100 * parseFloat(r[w]) / p.total).toFixed(2) : "0");
      return c;
    });
    var wrap = el("div", { "class": "tablewrap" });
    var t = el("table", { "class": "profile sortable", "data-profile": p.name });
    var head = el("tr");
    var body = el("tbody");
    columns.forEach(function (c, i) {
      var th = el("th", { scope: "col", title: "sort by " + c }, c);
      th.addEventListener("click", function () {
        var desc = !th.classList.contains("desc");
        head.querySelectorAll("th").forEach(function (x) { x.classList.remove("asc", "desc"); });
        th.classList.add(desc ? "desc" : "asc");
        rows.sort(function (a, b) { return desc ? compare(b[i], a[i]) : compare(a[i], b[i]); });
        fill();
      });
      head.appendChild(th);
    });
    var thead = el("thead");
    thead.appendChild(head);
    t.appendChild(thead);
    t.appendChild(body);
    function fill() {
      body.innerHTML = "";
      rows.forEach(function (r) {
        var tr = el("tr");
        r.forEach(function (c) {
          tr.appendChild(el("td", { "class": NUMBER.test(c) ? "num" : "", title: c }, c));
        });
        body.appendChild(tr);
      });
    }
    fill();
    wrap.appendChild(t);
    parent.appendChild(wrap);
    if (p.rows.length < p.count) {
      parent.appendChild(el("p", { "class": "note" }, "The " + fmt(p.rows.length)
        + " hottest of " + fmt(p.count) + " entries; the CSV file has them all."));
    }
  }

  data.profiles.forEach(function (p) {
    var s = section(id(p.name), p.name);
    s.appendChild(el("p", {}, fmt(p.count) + " entries, " + p.weight + " " + fmt(p.total)));
    p.notes.forEach(function (n) { s.appendChild(el("p", { "class": "note" }, "note: " + n)); });
    if (p.stacks) {
      s.appendChild(el("h3", {}, "Flame graph"));
      flameGraph(s, p);
    }
    s.appendChild(el("h3", {}, "Table"));
    table(s, p);
  });

  // ---- timeline of sampled intervals and phases ----
  if (data.phases && data.phases.length) {
    var ts = section("timeline", "Timeline");
    var n = data.phases.length, withPhases = data.phases.some(function (r) { return r[1] !== null; });
    var W = 1000, rowH = 22, top = 18, rowsShown = withPhases ? 3 : 1;
    var H = top + rowsShown * (rowH + 6) + 24;
    var NS = "http://www.w3.org/2000/svg";
    function s(tag, attrs, text) {
      var e = document.createElementNS(NS, tag);
      for (var k in attrs) { e.setAttribute(k, attrs[k]); }
      if (text !== undefined) { e.textContent = text; }
      return e;
    }
    var svg = s("svg", { "class": "timeline", viewBox: "0 0 " + (W + 110) + " " + H,
      role: "img", "aria-label": "timeline of " + n + " intervals" });
    svg.setAttribute("class", "timeline");
    var labels = withPhases ? ["phase", "predicted", "sampled"] : ["sampled"];
    labels.forEach(function (l, i) {
      svg.appendChild(s("text", { x: 0, y: top + i * (rowH + 6) + 15, "font-size": 12 }, l));
    });
    var x0 = 100, iw = W / n;
    data.phases.forEach(function (r) {
      var x = x0 + r[0] * iw;
      var rowsOf = withPhases ? [r[1], r[2], r[3]] : [r[3]];
      rowsOf.forEach(function (v, i) {
        var sampledRow = i === rowsOf.length - 1;
        var fill = sampledRow ? (v ? "#2a7" : "#eee")
          : (v === null ? "#eee" : "hsl(" + ((v * 67) % 360) + ",60%,60%)");
        var rect = s("rect", { x: x, y: top + i * (rowH + 6), width: Math.max(iw, 0.5),
          height: rowH, fill: fill, "class": sampledRow ? "interval" + (v ? " sampled" : "") : "phase" });
        rect.appendChild(s("title", {}, "interval " + r[0] + (withPhases ? ": phase " + r[1]
          + ", predicted " + r[2] : "") + (r[3] ? ", sampled" : ", not sampled")));
        svg.appendChild(rect);
      });
    });
    var sampled = data.phases.filter(function (r) { return r[3]; }).length;
    svg.appendChild(s("text", { x: x0, y: H - 6, "font-size": 12 }, n + " intervals, "
      + sampled + " sampled" + (withPhases ? ", " + new Set(data.phases.map(function (r) {
        return r[1]; })).size + " phases" : "")));
    ts.appendChild(svg);
  }
  document.body.setAttribute("data-ready", "true");
})();
