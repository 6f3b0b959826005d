// Two fixes for keyboard and screen-reader users, on every page. Without JavaScript the page
// keeps what the build wrote, which is also accessible: every box that may scroll is a tab stop.
(function () {
  "use strict";

  // 1. Material puts the buttons of each code block (copy, ...) in a <nav>, so every code
  // block added an unnamed navigation landmark. They are buttons, not navigation: the <nav>
  // loses its landmark role. Material adds a block's buttons when it comes into view.
  function codeButtonsNotLandmarks(root) {
    if (root.matches && root.matches("nav.md-code__nav:not([role])")) root.setAttribute("role", "none");
    if (root.querySelectorAll) root.querySelectorAll("nav.md-code__nav:not([role])").forEach(function (nav) {
      nav.setAttribute("role", "none");
    });
  }
  codeButtonsNotLandmarks(document);
  new MutationObserver(function (mutations) {
    mutations.forEach(function (mutation) { mutation.addedNodes.forEach(codeButtonsNotLandmarks); });
  }).observe(document.body, {childList: true, subtree: true});

  // 2. A box that scrolls sideways (a figure wider than the column, a long equation) is a tab
  // stop, so the arrow keys can scroll it; one that fits is not, so Tab goes straight to what
  // is inside (a heatmap's cells) or on. The build makes every box that may
  // scroll on a phone a tab stop (sitebuild/inside_page/figures.py, after_pages/html_fixes.py);
  // here each keeps it only while it scrolls, at the reader's width.
  var BOXES = "figure.snippet-figure[tabindex], div.math-block[tabindex]";
  var boxes = Array.prototype.slice.call(document.querySelectorAll(BOXES));
  function tabStopWhereItScrolls(box) {
    if (box.scrollWidth > box.clientWidth + 1) box.setAttribute("tabindex", "0");
    else if (document.activeElement !== box) box.removeAttribute("tabindex");
  }
  if (boxes.length && window.ResizeObserver) {
    var watch = new ResizeObserver(function (entries) {
      entries.forEach(function (entry) { tabStopWhereItScrolls(entry.target); });
    });
    boxes.forEach(function (box) { watch.observe(box); });
  }
})();
