// The trained-model chapter's panel as the page loads: the build writes this file into the
// page, right after the panel (sitebuild/after_pages/minilm_panel.py), so it costs no request.
// It shows the panel's form (hidden without JavaScript, where a note stands instead) and
// loads minilm-in-page.js when the reader first runs the model, or a script first calls
// window.minilmInPage.attention(text) or .tokens(text): nothing of the model loads before that.
(function () {
  "use strict";
  var panel = document.currentScript.previousElementSibling, form = panel.querySelector("form"), loading = null;

  function load() {
    return loading = loading || new Promise(function (resolve, reject) {
      var script = document.head.appendChild(document.createElement("script"));
      script.onload = function () { resolve(window.minilmInPage); };
      script.onerror = function () {
        loading = null;  // the next try loads it again
        reject(new Error(panel.dataset.failed));
      };
      script.src = panel.dataset.script;
    });
  }

  // Until minilm-in-page.js replaces them with its own: load it, then ask it.
  function later(name) {
    return function (text) { return load().then(function (page) { return page[name](text); }); };
  }

  form.hidden = false;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    load().then(function (page) { page.run(); }, function (error) {
      form.querySelector("[role=status]").textContent = error.message;
    });
  });
  window.minilmInPage = {attention: later("attention"), tokens: later("tokens")};
})();
