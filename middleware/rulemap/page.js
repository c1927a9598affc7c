// ruleweave map: draws the JSON in #map-data. Every string from the repository goes into the page as a
// text node or a property (never as markup), with hidden characters spelled as visible escapes.
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("map-data").textContent);
  const nodes = data.tree;
  const rules = data.rules;
  const findings = data.findings;
  const agents = data.agents;
  const byAgent = new Map(agents.map((a) => [a.agent, a]));

  // -- text and elements -------------------------------------------------------------------------------
  const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

  function escapeChar(c) {
    if (c === "\n" || c === "\t") return c;
    let out = "";
    for (let i = 0; i < c.length; i++) out += "\\u" + c.charCodeAt(i).toString(16).padStart(4, "0");
    return out;
  }

  function vis(value) {
    return String(value === null || value === undefined ? "" : value).replace(HIDDEN, escapeChar);
  }

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "title") node.title = vis(value);
      else if (key === "onclick") node.addEventListener("click", value);
      else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") node.setAttribute(key, String(value));
      else node[key] = value;
    }
    append(node, children);
    return node;
  }

  function append(parent, children) {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      if (Array.isArray(child)) append(parent, child);
      else if (child instanceof Node) parent.appendChild(child);
      else parent.appendChild(document.createTextNode(vis(child)));
    }
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  const num = (n) => (n === null || n === undefined ? "?" : Number(n).toLocaleString("en-US"));
  const plural = (n, word, many) => num(n) + " " + (n === 1 ? word : many || word + "s");

  function heat(count, max) { // a log scale: the root, which counts everything below it, would wash out the rest
    if (!count) return "#e8ebf0";
    const t = max > 1 ? Math.log(count) / Math.log(max) : 1;
    return "hsl(" + Math.round(205 - 25 * t) + ", 75%, " + Math.round(82 - 44 * t) + "%)";
  }

  // -- the tree, computed once -------------------------------------------------------------------------
  const children = nodes.map(() => []);
  nodes.forEach((n, i) => { if (n.parent !== null) children[n.parent].push(i); });
  const depth = nodes.map(() => 0);
  const end = nodes.map((_, i) => i); // the last descendant in pre-order
  for (let i = 1; i < nodes.length; i++) depth[i] = depth[nodes[i].parent] + 1;
  for (let i = nodes.length - 1; i > 0; i--) end[nodes[i].parent] = Math.max(end[nodes[i].parent], end[i]);
  const subtreeFiles = nodes.map((n) => n.files);
  for (let i = nodes.length - 1; i > 0; i--) subtreeFiles[nodes[i].parent] += subtreeFiles[i];
  const hits = nodes.map(() => []); // [rule, glob, files] of the files directly in the node
  rules.forEach((r) => r.covers.forEach(([node, glob, files]) => hits[node].push([r.id, glob, files])));
  const nodeFindings = nodes.map(() => []);
  findings.forEach((f, i) => nodeFindings[f.node].push(i));
  const findingsBelow = nodes.map((_, i) => nodeFindings[i].length);
  for (let i = nodes.length - 1; i > 0; i--) findingsBelow[nodes[i].parent] += findingsBelow[i];
  const noticeOver = new Map(data.budget.notice.over.map((o) => [o.node, o]));
  const nodeByPath = new Map(nodes.map((n, i) => [n.path, i]));
  const nameOf = (i) => (i === 0 ? data.project.name : nodes[i].path.slice(nodes[i].path.lastIndexOf("/") + 1));
  const pathOf = (i) => (i === 0 ? "(project root)" : nodes[i].path + "/");

  // -- per agent -----------------------------------------------------------------------------------------
  let agentId = agents.length ? agents[0].agent : null;
  let view = null; // { attached: Set, anchors: [[key, label]...] per node, applying: [Set] per node, max }

  function reachOf(rule) { return (rule.agents || {})[agentId] || { loads: null }; }

  function computeView() {
    const attached = new Set(rules.filter((r) => reachOf(r).loads === "by path").map((r) => r.id));
    const anchors = nodes.map(() => []);
    for (const r of rules) {
      if (reachOf(r).loads === "in its directory" && r.node !== 0) anchors[r.node].push(["r" + r.id, r.name]);
    }
    const current = byAgent.get(agentId);
    for (const [node, path] of (current && current.instructions) || []) {
      if (node !== 0) anchors[node].push(["f" + path, path]);
    }
    const below = nodes.map(() => null);
    for (let i = nodes.length - 1; i >= 0; i--) {
      const set = new Set();
      for (const [rule] of hits[i]) if (attached.has(rule)) set.add("r" + rule);
      for (const [key] of anchors[i]) set.add(key);
      for (const child of children[i]) for (const key of below[child]) set.add(key);
      below[i] = set;
    }
    const inherited = nodes.map(() => []);
    for (let i = 1; i < nodes.length; i++) {
      const p = nodes[i].parent;
      inherited[i] = inherited[p].concat(anchors[p].map(([key]) => key));
    }
    const applying = below.map((set, i) => {
      if (!inherited[i].length) return set;
      const all = new Set(set);
      inherited[i].forEach((key) => all.add(key));
      return all;
    });
    const max = applying.reduce((m, s, i) => (i === 0 ? m : Math.max(m, s.size)), 0);
    view = { attached, anchors, inherited, applying, max: Math.max(max, applying[0] ? applying[0].size : 0) };
  }

  // -- layout --------------------------------------------------------------------------------------------
  const select = el("select", { id: "agent", "aria-label": "agent" },
    agents.map((a) => el("option", { value: a.agent }, a.label + " (" + a.agent + ")")));
  const agentSummary = el("div", { id: "agent-summary" });
  const summary = data.summary;
  document.body.appendChild(el("header", {},
    el("h1", {}, "ruleweave map: ", data.project.name),
    el("div", { class: "stats" },
      plural(data.project.files, "file") + " (" + data.project.listing + ") · " +
      plural(data.project.directories, "directory", "directories") + " · " +
      plural(rules.length, "rule") + " · " + plural(summary.findings, "finding") + " (" +
      plural(summary.warnings, "warning") + ")" +
      (data.project.folded_below ? " · directories below depth " + data.project.folded_below + " folded" : "")),
    el("label", {}, "Agent ", select),
    agentSummary));

  const treeBox = el("div", { id: "tree", role: "tree" });
  const legend = el("span", { class: "legend" });
  const tabs = {
    directory: el("div", { id: "detail", class: "tab" }),
    rules: el("div", { id: "rules-tab", class: "tab" }),
    budget: el("div", { id: "budget", class: "tab" }),
    findings: el("div", { id: "findings", class: "tab" }),
    instructions: el("div", { id: "instruction-files", class: "tab" }),
  };
  const tabButtons = {};
  const titles = { directory: "Directory", rules: "Rules", budget: "Budget", findings: "Findings",
    instructions: "Instruction files" };
  const nav = el("nav", { class: "tabs", role: "tablist" });
  for (const key of Object.keys(tabs)) {
    tabButtons[key] = el("button", { type: "button", role: "tab", "data-tab": key, onclick: () => showTab(key) },
      titles[key]);
    nav.appendChild(tabButtons[key]);
  }
  document.body.appendChild(el("main", {},
    el("section", { id: "tree-pane" },
      el("div", { class: "pane-head" }, el("h2", {}, "Directories"), legend), treeBox),
    el("section", { id: "side" }, nav, Object.values(tabs))));

  let currentTab = "directory";
  function showTab(key) {
    currentTab = key;
    for (const [name, box] of Object.entries(tabs)) {
      box.hidden = name !== key;
      tabButtons[name].setAttribute("aria-selected", String(name === key));
    }
  }

  // -- tree rows -----------------------------------------------------------------------------------------
  const expanded = nodes.map((_, i) => depth[i] < 1);
  const rows = nodes.map((n, i) => {
    const toggle = children[i].length
      ? el("button", { type: "button", class: "toggle", "aria-label": "expand", onclick: (e) => {
        e.stopPropagation(); setExpanded(i, !expanded[i]);
      } }, "▸")
      : el("span", { class: "toggle" }, "");
    const fill = el("span", { class: "fill" });
    const row = el("div", { class: "row", role: "treeitem", tabIndex: 0, "data-node": i, "data-path": n.path },
      el("span", { class: "indent" }), toggle, el("span", { class: "heat" }),
      el("span", { class: "name" }, nameOf(i) + (n.folded ? " (+" + num(n.folded) + " folded)" : "")),
      el("span", { class: "bar" }, fill),
      el("span", { class: "count" }),
      el("span", { class: "files" }, num(subtreeFiles[i])),
      findingsBelow[i] ? el("span", { class: "badge " + badgeLevel(i), title: plural(findingsBelow[i], "finding") },
        "⚠ " + num(findingsBelow[i])) : el("span", { class: "badge" }));
    row.firstChild.style.width = depth[i] * 14 + "px";
    row.firstChild.style.flex = "0 0 auto";
    fill.style.width = (subtreeFiles[0] ? Math.max(2, Math.sqrt(subtreeFiles[i] / subtreeFiles[0]) * 100) : 0) + "%";
    row.addEventListener("click", () => selectNode(i));
    row.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); selectNode(i); }
      else if (e.key === "ArrowRight" && children[i].length) setExpanded(i, true);
      else if (e.key === "ArrowLeft" && children[i].length) setExpanded(i, false);
    });
    row.addEventListener("mouseenter", () => { row.title = vis(rowTitle(i)); });
    treeBox.appendChild(row);
    return row;
  });

  function badgeLevel(i) {
    for (let j = i; j <= end[i]; j++) {
      if (nodeFindings[j].some((f) => findings[f].severity === "warning")) return "warning";
    }
    return "info";
  }

  function setExpanded(i, open) {
    expanded[i] = open;
    refreshVisibility();
  }

  function refreshVisibility() {
    const shown = nodes.map(() => false);
    shown[0] = true;
    for (let i = 0; i < nodes.length; i++) {
      if (i > 0) shown[i] = shown[nodes[i].parent] && expanded[nodes[i].parent];
      rows[i].hidden = !shown[i];
      const toggle = rows[i].children[1];
      if (children[i].length) {
        toggle.textContent = expanded[i] ? "▾" : "▸";
        rows[i].setAttribute("aria-expanded", String(expanded[i]));
      }
    }
  }

  function recolour() {
    computeView();
    rows.forEach((row, i) => {
      const count = view.applying[i].size;
      row.querySelector(".count").textContent = num(count);
      row.querySelector(".heat").style.backgroundColor = heat(count, view.max);
      row.dataset.rules = String(count);
      row.title = "";
    });
    clear(legend);
    const label = byAgent.get(agentId) ? byAgent.get(agentId).label : agentId;
    append(legend, ["rules and files that apply, for " + label + ": ",
      [0, 1, Math.round(Math.sqrt(view.max)), view.max].filter((v, k, a) => a.indexOf(v) === k).map((v) => {
        const sw = el("span", { class: "swatch", title: String(v) });
        sw.style.backgroundColor = heat(v, view.max);
        return [sw, " " + v + " "];
      })]);
  }

  function rowTitle(i) {
    const lines = [pathOf(i) + ": " + plural(subtreeFiles[i], "file")];
    const direct = hits[i].filter(([rule]) => view.attached.has(rule));
    if (direct.length) {
      lines.push("rules attached to files here:");
      direct.slice(0, 12).forEach(([rule, glob, files]) =>
        lines.push("  " + rules[rule].name + "  (" + rules[rule].globs[glob] + ", " + plural(files, "file") + ")"));
      if (direct.length > 12) lines.push("  … and " + (direct.length - 12) + " more");
    }
    const total = view.applying[i].size;
    if (total > direct.length) lines.push(plural(total - direct.length, "more rule or file", "more rules or files") + " below or from a parent");
    return lines.join("\n");
  }

  // -- selection -----------------------------------------------------------------------------------------
  let selected = 0;
  let selectedRule = null;

  function selectNode(i, quiet) {
    selected = i;
    rows.forEach((row, k) => row.classList.toggle("selected", k === i));
    for (let p = nodes[i].parent; p !== null; p = nodes[p].parent) expanded[p] = true;
    refreshVisibility();
    renderDetail();
    showTab("directory");
    if (!quiet) writeHash();
  }

  function ruleLink(id) {
    return el("button", { type: "button", class: "link", "data-rule": id, onclick: () => selectRule(id) }, rules[id].name);
  }

  function nodeLink(i) {
    return el("button", { type: "button", class: "link mono", "data-node": i, onclick: () => selectNode(i) }, pathOf(i));
  }

  function reachCell(reach) {
    if (reach.loads) {
      const mark = reach.cut ? "✂" : "✓";
      return el("span", { class: reach.cut ? "cut" : "yes", title: reach.loads + (reach.cut ? ": " + reach.cut : "") +
        (reach.note ? " (" + reach.note + ")" : "") }, mark);
    }
    return el("span", { class: "no", title: (reach.why || "not loaded") + (reach.note ? ": " + reach.note : "") }, "✗");
  }

  function findingItem(index) {
    const f = findings[index];
    return el("div", { class: "finding", "data-code": f.code, "data-finding": index },
      el("span", { class: "badge " + f.severity }, f.severity), " ",
      el("strong", {}, f.code), f.agent ? " [" + f.agent + "] " : " ",
      el("button", { type: "button", class: "link where", onclick: () => selectNode(f.node) },
        (f.path || "(project)") + (f.line ? ":" + f.line : "")),
      el("div", {}, f.message),
      f.details.length ? el("ul", {}, f.details.map((d) => el("li", { class: "mono" }, d))) : null);
  }

  function renderDetail() {
    const box = clear(tabs.directory);
    const i = selected;
    const current = byAgent.get(agentId);
    const crumbs = [];
    for (let p = i; p !== null; p = nodes[p].parent) crumbs.unshift(p);
    append(box, [
      el("h3", { id: "detail-path" }, crumbs.map((p, k) => [k ? " / " : "", el("button", {
        type: "button", class: "link", onclick: () => selectNode(p) }, nameOf(p))])),
      el("p", { class: "muted" }, plural(nodes[i].files, "file") + " here, " + plural(subtreeFiles[i], "file") +
        " with subdirectories" + (nodes[i].folded ? "; " + plural(nodes[i].folded, "deeper directory", "deeper directories") +
        " folded in" : "") + ". For " + (current ? current.label : agentId) + ", " +
        plural(view.applying[i].size, "rule or file applies", "rules or files apply") + " here."),
    ]);
    const direct = hits[i].filter(([rule]) => view.attached.has(rule));
    box.appendChild(el("h4", {}, "Rules attached to files here (" + direct.length + ")"));
    if (direct.length) {
      box.appendChild(el("table", { id: "detail-rules" },
        el("tr", {}, el("th", {}, "rule"), el("th", {}, "glob that matched"), el("th", { class: "num" }, "files")),
        direct.map(([rule, glob, files]) => el("tr", { "data-rule": rule },
          el("td", {}, ruleLink(rule)), el("td", { class: "mono" }, rules[rule].globs[glob]),
          el("td", { class: "num" }, num(files))))));
    } else box.appendChild(el("p", { class: "muted" }, "none"));
    const directKeys = new Set(direct.map(([rule]) => "r" + rule));
    const inherited = new Set(view.inherited[i].concat(view.anchors[i].map(([key]) => key)));
    const deeper = [...view.applying[i]].filter((key) => !directKeys.has(key) && !inherited.has(key));
    box.appendChild(el("h4", {}, "From this directory or a parent (" + inherited.size + ")"));
    box.appendChild(keyList([...inherited]));
    box.appendChild(el("h4", {}, "Only in subdirectories (" + deeper.length + ")"));
    box.appendChild(keyList(deeper.slice(0, 200), deeper.length - 200));
    if (current) {
      box.appendChild(el("h4", {}, "Everywhere: loaded at session start (" + current.session_start.length + ", " +
        num(current.session_bytes) + " bytes)"));
      box.appendChild(el("ul", {}, current.session_start.map((s) =>
        el("li", {}, el("span", { class: "mono" }, s.path), " ", num(s.bytes) + " bytes, " + s.why))));
    }
    const over = noticeOver.get(i);
    if (over) box.appendChild(noticeBlock(over));
    box.appendChild(el("h4", {}, "Findings here (" + nodeFindings[i].length + "; " + num(findingsBelow[i]) +
      " with subdirectories)"));
    append(box, nodeFindings[i].map(findingItem));
  }

  function keyList(keys, more) {
    if (!keys.length) return el("p", { class: "muted" }, "none");
    return el("ul", {}, keys.map((key) => el("li", {}, key[0] === "r" ? ruleLink(Number(key.slice(1)))
      : el("span", { class: "mono" }, "instruction file " + key.slice(1)))),
      more > 0 ? el("li", { class: "muted" }, "… and " + more + " more") : null);
  }

  // -- rules ---------------------------------------------------------------------------------------------
  const ruleFilter = el("input", { type: "search", id: "rule-filter", placeholder: "filter by name, file or glob" });
  const disagree = el("input", { type: "checkbox", id: "disagree" });
  const ruleDetail = el("div", { id: "rule-detail" });
  const ruleTable = el("table", { id: "rules" });
  append(tabs.rules, [ruleDetail,
    el("div", { class: "filters" }, ruleFilter, el("label", {}, disagree, " only rules the agents disagree on")),
    ruleTable]);
  ruleFilter.addEventListener("input", renderRuleTable);
  disagree.addEventListener("change", renderRuleTable);

  function renderRuleTable() {
    clear(ruleTable);
    const needle = ruleFilter.value.toLowerCase();
    ruleTable.appendChild(el("tr", {}, el("th", {}, "rule"), el("th", {}, "format"), el("th", {}, "bucket"),
      el("th", {}, "globs"), el("th", { class: "num" }, "bytes"), el("th", { class: "num" }, "files"),
      agents.map((a) => el("th", { class: "mark", title: a.label }, a.agent)), el("th", {}, "findings")));
    for (const r of rules) {
      if (needle && ![r.name, r.file, ...r.globs].some((s) => String(s).toLowerCase().includes(needle))) continue;
      const loads = agents.map((a) => Boolean((r.agents[a.agent] || {}).loads));
      if (disagree.checked && loads.every((v) => v === loads[0])) continue;
      const row = el("tr", { class: "rule-row" + (r.id === selectedRule ? " selected" : ""), "data-rule": r.id },
        el("td", {}, r.name, r.kind !== "rule" ? el("span", { class: "muted" }, " (" + r.kind + ")") : null),
        el("td", {}, r.format), el("td", {}, r.bucket || "—"), el("td", { class: "mono" }, r.globs.join(", ")),
        el("td", { class: "num" }, num(r.bytes)), el("td", { class: "num" }, num(r.files)),
        agents.map((a) => el("td", { class: "mark", "data-agent": a.agent }, reachCell(r.agents[a.agent] || {}))),
        el("td", {}, r.findings.length ? el("span", { class: "badge warning" }, String(r.findings.length)) : ""));
      row.addEventListener("click", () => selectRule(r.id));
      ruleTable.appendChild(row);
    }
  }

  function selectRule(id, quiet) {
    selectedRule = id;
    const r = rules[id];
    const box = clear(ruleDetail);
    append(box, [
      el("h3", { id: "rule-name" }, r.name),
      el("dl", {},
        el("dt", {}, "file"), el("dd", { class: "mono" }, r.file),
        el("dt", {}, "format"), el("dd", {}, r.format + " (provider " + r.provider + ")"),
        el("dt", {}, "bucket"), el("dd", {}, (r.bucket || "—") + (r.kind !== "rule" ? " · " + r.kind : "")),
        el("dt", {}, "globs"), el("dd", { class: "mono" }, r.globs.length ? r.globs.join(", ") : "none"),
        r.exclude_globs ? [el("dt", {}, "not on"), el("dd", { class: "mono" }, r.exclude_globs.join(", "))] : null,
        r.content_regex ? [el("dt", {}, "only when the file matches"),
          el("dd", { class: "mono" }, r.content_regex.join(", "))] : null,
        r.description ? [el("dt", {}, "description"), el("dd", {}, r.description)] : null,
        el("dt", {}, "size"), el("dd", {}, num(r.bytes) + " bytes"),
        el("dt", {}, "attaches to"), el("dd", {}, plural(r.files, "file") + " in " +
          plural(r.covers.length, "directory", "directories"))),
      el("h4", {}, "Which agents load it"),
      el("table", { id: "rule-agents" }, agents.map((a) => {
        const reach = r.agents[a.agent] || {};
        return el("tr", { "data-agent": a.agent }, el("td", {}, a.label), el("td", {}, reachCell(reach)),
          el("td", {}, reach.loads ? reach.loads : "not loaded: " + (reach.why || "?")),
          el("td", { class: "muted" }, [reach.note, reach.cut].filter(Boolean).join(" — ")));
      })),
      el("h4", {}, "Directories it covers (" + r.covers.length + ")"),
      r.covers.length ? el("table", { id: "rule-covers" }, r.covers.slice(0, 300).map(([node, glob, files]) =>
        el("tr", {}, el("td", {}, nodeLink(node)), el("td", { class: "mono" }, r.globs[glob]),
          el("td", { class: "num" }, plural(files, "file"))))) : el("p", { class: "muted" }, "none"),
      r.covers.length > 300 ? el("p", { class: "muted" }, "… and " + (r.covers.length - 300) + " more") : null,
      el("h4", {}, "Findings about its file (" + r.findings.length + ")"),
      r.findings.map(findingItem),
      el("h4", {}, "Text"),
      el("pre", { id: "rule-text" }, r.excerpt),
      r.excerpt_cut ? el("p", { class: "muted" }, "… " + num(r.excerpt_cut) + " more bytes in " + r.file) : null,
    ]);
    for (const row of ruleTable.querySelectorAll("tr.rule-row")) {
      row.classList.toggle("selected", Number(row.dataset.rule) === id);
    }
    showTab("rules");
    if (!quiet) writeHash();
  }

  // -- budget, findings, instruction files ---------------------------------------------------------------
  function meter(used, limit) {
    const box = el("span", { class: "meter" + (limit !== null && used > limit ? " over" : "") });
    const bar = el("span");
    bar.style.width = (limit ? Math.min(100, (used / limit) * 100) : 100) + "%";
    box.appendChild(bar);
    return box;
  }

  function noticeBlock(over) {
    return el("div", { class: "notice-over" },
      el("h4", {}, "After-tool notice over budget"),
      el("p", {}, "Touching ", el("span", { class: "mono" }, over.path), " fires " + num(over.bytes) +
        " bytes of rule text; notice_max_bytes is " + num(data.budget.notice.limit) + ", so they share it:"),
      el("ul", {}, over.rules.map((x) => el("li", {}, ruleLink(x.rule), " " + num(x.bytes) + " bytes" +
        (x.kept === null ? ", whole" : ", cut to " + num(x.kept))))));
  }

  function renderBudget() {
    const box = clear(tabs.budget);
    const prompt = data.budget.prompt;
    box.appendChild(el("h3", {}, "ruleweave session start"));
    box.appendChild(el("p", {}, meter(prompt.used, prompt.limit), num(prompt.used) + " of " + num(prompt.limit) +
      " bytes (prompt_max_bytes)"));
    box.appendChild(el("table", { id: "budget-blocks" },
      el("tr", {}, el("th", {}, "block"), el("th", {}, ""), el("th", { class: "num" }, "used"),
        el("th", { class: "num" }, "limit"), el("th", {}, "cut")),
      prompt.blocks.map((b) => el("tr", { "data-block": b.block }, el("td", {}, b.block),
        el("td", {}, meter(b.used, b.limit === null ? prompt.limit : b.limit)), el("td", { class: "num" }, num(b.used)),
        el("td", { class: "num" }, b.limit === null ? "—" : num(b.limit)),
        el("td", {}, b.cut.length ? b.cut.map((c) => el("div", { class: "mono" }, (c.name || c.path) + ": " +
          num(c.bytes_dropped) + " bytes dropped")) : "nothing")))));
    box.appendChild(el("h3", {}, "Each agent at session start"));
    box.appendChild(el("table", { id: "budget-agents" },
      el("tr", {}, el("th", {}, "agent"), el("th", { class: "num" }, "files and rules"),
        el("th", { class: "num" }, "bytes"), el("th", {}, "limits")),
      agents.map((a) => el("tr", { "data-agent": a.agent }, el("td", {}, a.label),
        el("td", { class: "num" }, num(a.session_start.length)), el("td", { class: "num" }, num(a.session_bytes)),
        el("td", {}, a.limits.length ? a.limits.map((l) => el("div", {},
          l.scope === "chain" && l.unit === "bytes" ? meter(a.session_bytes, l.amount) : null,
          l.name + ": " + num(l.amount) + " " + l.unit + " per " + l.scope.replace("-", " ")))
          : el("span", { class: "muted" }, "none known"))))));
    const notice = data.budget.notice;
    box.appendChild(el("h3", {}, "After-tool notices (ruleweave)"));
    box.appendChild(el("p", {}, "notice_max_bytes: " + num(notice.limit) + " bytes per notice, shared max-min " +
      "fairly by the rules a touch fires. " + (notice.over.length
      ? plural(notice.over.length + notice.more, "directory", "directories") +
        " where touching one file fires more:" : "No single touch fires more rule text than that.")));
    append(box, notice.over.map((o) => el("div", {}, nodeLink(o.node), noticeBlock(o))));
    const over = findings.map((f, i) => (f.code === "over-limit" ? i : -1)).filter((i) => i >= 0);
    box.appendChild(el("h3", {}, "Over a limit (" + over.length + ")"));
    append(box, over.map(findingItem));
  }

  function renderFindings() {
    const box = clear(tabs.findings);
    const codes = Object.entries(summary.by_code).map(([code, n]) => code + ": " + n).join(", ");
    box.appendChild(el("p", {}, plural(summary.findings, "finding") + " (" + plural(summary.warnings, "warning") +
      ") over " + plural(summary.rules, "rule") + " and " + plural(summary.files, "file") + (codes ? ". " + codes : "")));
    append(box, findings.map((_, i) => findingItem(i)));
  }

  function renderInstructionFiles() {
    const box = clear(tabs.instructions);
    const files = data.instruction_files;
    if (!files.length) { box.appendChild(el("p", { class: "muted" }, "No instruction files in this project.")); return; }
    box.appendChild(el("table", { id: "instruction-table" },
      el("tr", {}, el("th", {}, "file"), el("th", { class: "num" }, "bytes"),
        agents.map((a) => el("th", { class: "mark", title: a.label }, a.agent))),
      files.map((f) => el("tr", { "data-path": f.path },
        el("td", {}, el("button", { type: "button", class: "link mono", onclick: () => selectNode(f.node) }, f.path)),
        el("td", { class: "num" }, num(f.bytes)),
        agents.map((a) => el("td", { class: "mark", "data-agent": a.agent }, reachCell(f.agents[a.agent] || {})))))));
  }

  function renderAgentSummary() {
    const a = byAgent.get(agentId);
    clear(agentSummary);
    if (!a) return;
    const loaded = rules.filter((r) => (r.agents[agentId] || {}).loads).length;
    const limits = a.limits.map((l) => l.name + " " + num(l.amount) + " " + l.unit).join(", ");
    append(agentSummary, [a.label + ": " + plural(loaded, "rule") + " of " + rules.length + " loaded; " +
      "session start " + plural(a.session_start.length, "file or rule", "files and rules") +
      ", " + num(a.session_bytes) + " bytes; " + plural(a.by_path.length, "rule") + " attach by path" +
      (limits ? "; limits: " + limits : "")]);
  }

  // -- state in the URL fragment: #agent=codex&dir=api/db&rule=3&tab=budget -------------------------------
  function writeHash() {
    const parts = ["agent=" + encodeURIComponent(agentId)];
    if (currentTab === "rules" && selectedRule !== null) parts.push("rule=" + selectedRule);
    else if (selected) parts.push("dir=" + encodeURIComponent(nodes[selected].path));
    if (currentTab !== "directory" && currentTab !== "rules") parts.push("tab=" + currentTab);
    const hash = "#" + parts.join("&");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function setAgent(id, quiet) {
    if (!byAgent.has(id)) return;
    agentId = id;
    select.value = id;
    document.body.dataset.agent = id;
    recolour();
    renderAgentSummary();
    renderDetail();
    renderRuleTable();
    if (selectedRule !== null) selectRule(selectedRule, true);
    if (!quiet) writeHash();
  }

  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const agent = params.get("agent");
    if (agent && agent !== agentId && byAgent.has(agent)) setAgent(agent, true);
    const dir = params.get("dir");
    if (dir !== null && nodeByPath.has(dir)) selectNode(nodeByPath.get(dir), true);
    const rule = params.get("rule");
    if (rule !== null && rules[Number(rule)]) selectRule(Number(rule), true);
    const tab = params.get("tab");
    if (tab && tabs[tab]) showTab(tab);
  }

  select.addEventListener("change", () => setAgent(select.value));
  window.addEventListener("hashchange", readHash);

  showTab("directory");
  setAgent(agentId, true);
  renderBudget();
  renderFindings();
  renderInstructionFiles();
  selectNode(0, true);
  readHash();
  document.body.dataset.ready = "1";
})();
