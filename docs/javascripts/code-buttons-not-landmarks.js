// Material puts the buttons of each code block (copy, ...) in a <nav>, so every code
// block added an unnamed navigation landmark. They are buttons, not navigation: the
// <nav> loses its landmark role. Without JavaScript there are no such buttons.
function codeButtonsNotLandmarks() {
  document.querySelectorAll("nav.md-code__nav:not([role])").forEach(function (nav) {
    nav.setAttribute("role", "none");
  });
}
codeButtonsNotLandmarks();
new MutationObserver(codeButtonsNotLandmarks).observe(document.body, {childList: true, subtree: true});
