"""In-page checks that the texts of a figure are readable: none overlaps another, none
leaves its figure. Shared by the gallery test and any test that wants to look at a figure
as a reader does."""

# Each .kv-widget's figure texts (plotly's and the SVG diagrams'), as rectangles. Two
# texts collide when their boxes share more than 2 px each way (glyph boxes of adjacent
# tick labels touch at most); a text leaves its figure when its box passes the outermost
# <svg> holding it by more than a pixel.
TEXT_PROBLEMS_JS = """() => {
  const problems = [];
  const shown = (e) => {
    const b = e.getBoundingClientRect();
    if (!b.width || !b.height || !e.textContent.trim()) return null;
    for (let n = e; n && n.nodeType === 1; n = n.parentNode) {
      const cs = getComputedStyle(n);
      if (cs.display === 'none' || cs.visibility === 'hidden' || Number(cs.opacity) === 0) return null;
    }
    return b;
  };
  const outerSvg = (e) => { let s = null; for (let n = e; n; n = n.parentElement) if (n.tagName && n.tagName.toLowerCase() === 'svg') s = n; return s; };
  document.querySelectorAll('.kv-widget').forEach((w, wi) => {
    const where = (w.closest('[data-state]') || {}).dataset?.state || `widget ${wi}`;
    const column = (w.closest('[data-theme-column]') || {}).dataset?.themeColumn || '';
    const texts = [];
    w.querySelectorAll('svg text').forEach((e) => {
      const b = shown(e);
      if (b) texts.push({ e, b, t: e.textContent.trim() });
    });
    for (const { e, b, t } of texts) {
      const s = outerSvg(e).getBoundingClientRect();
      if (b.left < s.left - 1 || b.right > s.right + 1 || b.top < s.top - 1 || b.bottom > s.bottom + 1)
        problems.push(`${where} ${column}: "${t}" leaves its figure`);
    }
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].b, b = texts[j].b;
      const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (dx > 2 && dy > 2) problems.push(`${where} ${column}: "${texts[i].t}" overlaps "${texts[j].t}"`);
    }
  });
  return problems;
}"""
