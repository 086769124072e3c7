// The rules page of a game: the project's rules text (Markdown), rendered without a library.
import { api } from "./api.js";
import { $ } from "./dom.js";
import { lang, t, tOr, setupPage, unfilled } from "./i18n.js";
import { expose } from "./hooks.js";

setupPage();
expose({ unfilled }); // window.menagerie (hooks.js)

const game = new URLSearchParams(location.search).get("game") || "arknova";

const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const inline = (t) => esc(t)
  .replace(/`([^`]+)`/g, "<code>$1</code>")
  .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
  .replace(/\*([^*]+)\*/g, "<em>$1</em>")
  .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, text, href) => (/^(https?:|\.?\/|#)/.test(href) ? `<a href="${href}">${text}</a>` : text));

/** A small Markdown subset: headings, paragraphs, lists, tables, code blocks, emphasis. */
export function markdown(src) {
  const lines = src.replace(/\r/g, "").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      const code = [];
      i += 1;
      while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
      i += 1;
      out.push(`<pre><code>${esc(code.join("\n"))}</code></pre>`);
    } else if (/^#{1,6}\s/.test(line)) {
      const n = line.match(/^#+/)[0].length;
      out.push(`<h${n}>${inline(line.slice(n).trim())}</h${n}>`);
      i += 1;
    } else if (/^\s*\|/.test(line)) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      const cells = (r) => r.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const head = cells(rows[0]);
      const body = rows.slice(2).map(cells);
      out.push(`<table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join("")}</tr></thead><tbody>${body.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`).join("")}</tbody></table>`);
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      while (i < lines.length && (/^\s*([-*]|\d+\.)\s/.test(lines[i]) || (/^\s{2,}\S/.test(lines[i]) && items.length))) {
        if (/^\s*([-*]|\d+\.)\s/.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+\.)\s/, ""));
        else items[items.length - 1] += ` ${lines[i].trim()}`;
        i += 1;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.map((t) => `<li>${inline(t)}</li>`).join("")}</${tag}>`);
    } else if (!line.trim()) {
      i += 1;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#|```|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i])) para.push(lines[i++]);
      out.push(`<p>${inline(para.join(" "))}</p>`);
    }
  }
  return out.join("\n");
}

async function init() {
  $("#cards-link").href = `cards.html?game=${encodeURIComponent(game)}`;
  try {
    const all = await api.catalog();
    const d = (Array.isArray(all) ? all : []).find((x) => x.name === game);
    if (d) {
      const title = tOr(`game.${d.name}.title`, d.title);
      $("#rules-title").textContent = t("rules.title_of", { title });
      document.title = t("rules.doc_title", { title });
    }
  } catch { /* a nicety */ }
  // the rules in the page's language (rules/<game>.<lang>.md), else the English text
  let text = null;
  const files = lang === "en" ? [`${game}.md`] : [`${game}.${lang}.md`, `${game}.md`];
  for (const file of files) {
    try {
      const res = await fetch(`rules/${encodeURIComponent(file)}`, { headers: { Accept: "text/markdown, text/plain" } });
      if (res.ok) { text = await res.text(); break; }
    } catch { /* the next one */ }
  }
  const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  $("#rules").innerHTML = text
    ? markdown(text)
    : `<h2>${esc(t("rules.title"))}</h2><p>${esc(t("rules.not_served"))} <a href="cards.html?game=${encodeURIComponent(game)}">${esc(t("rules.open_cards"))}</a>.</p>`;
}

init();
