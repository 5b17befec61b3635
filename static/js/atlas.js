// Matrix cells open their claims in a side panel with a URL of its own (?cell=system:capability):
// Back closes it, Escape closes it and puts focus back on the cell. One delegated listener
// instead of htmx attributes on thousands of cells keeps the page small; without JavaScript
// the links simply open the claims page.
const panelState = { opener: null, pushed: false };

function cellUrl(key) {
  const url = new URL(window.location.href);
  if (key) url.searchParams.set("cell", key);
  else url.searchParams.delete("cell");
  // The server writes "vllm:prefix-caching" with its colon; so do we, so URLs compare equal.
  const query = url.searchParams.toString().replaceAll("%3A", ":").replaceAll("%2C", ",");
  return url.pathname + (query ? `?${query}` : "");
}

function focusPanel() {
  const heading = document.querySelector("#cell_detail #cell-heading");
  if (heading) heading.focus();
}

function openCell(link, push) {
  panelState.opener = link;
  const key = link.dataset.cell;
  window.htmx.ajax("GET", link.getAttribute("href"), { target: "#cell_detail", swap: "outerHTML" })
    .then(focusPanel);
  if (push) {
    history.pushState({ atlasCell: key }, "", cellUrl(key));
    panelState.pushed = true;
  }
}

function hidePanel() {
  const panel = document.getElementById("cell_detail");
  if (!panel || panel.hidden) return;
  const key = panel.dataset.cellKey;
  panel.hidden = true;
  const opener = panelState.opener || (key && document.querySelector(`a[data-cell="${key}"]`));
  if (opener) opener.focus();
  panelState.opener = null;
}

function closePanel() {
  if (panelState.pushed && history.state && history.state.atlasCell) {
    history.back(); // popstate hides the panel, so Back and Close agree
    return;
  }
  hidePanel();
  history.replaceState(history.state, "", cellUrl(""));
}

document.addEventListener("click", (event) => {
  const close = event.target.closest("a[data-close-cell]");
  if (close && close.closest(".is-panel")) {
    event.preventDefault();
    closePanel();
    return;
  }
  const link = event.target.closest("a[data-cell]");
  if (!link || !window.htmx || event.metaKey || event.ctrlKey || event.shiftKey || event.button) {
    return;
  }
  event.preventDefault();
  if (panelState.pushed && history.state && history.state.atlasCell) {
    panelState.opener = link;
    window.htmx.ajax("GET", link.getAttribute("href"), { target: "#cell_detail", swap: "outerHTML" })
      .then(focusPanel);
    history.replaceState({ atlasCell: link.dataset.cell }, "", cellUrl(link.dataset.cell));
  } else {
    openCell(link, true);
  }
});

document.addEventListener("keydown", (event) => {
  const panel = document.getElementById("cell_detail");
  if (event.key === "Escape" && panel && !panel.hidden && panel.classList.contains("is-panel")) {
    event.preventDefault();
    closePanel();
  }
});

window.addEventListener("popstate", (event) => {
  const key = new URL(window.location.href).searchParams.get("cell");
  if (!key) {
    hidePanel();
    panelState.pushed = false;
    return;
  }
  const link = document.querySelector(`a[data-cell="${key}"]`);
  if (link && event.state && event.state.atlasCell) openCell(link, false);
});

// The must-have picker: typing narrows the list of features; choosing one and its level
// only takes effect on "Add" (the form's other controls apply on change).
function enablePicker() {
  for (const finder of document.querySelectorAll("input[data-filters]")) {
    const select = document.querySelector(finder.dataset.filters);
    if (!select) continue;
    finder.hidden = false;
    document.querySelector(`label[for="${finder.id}"]`).hidden = false;
    finder.addEventListener("input", () => {
      const words = finder.value.toLowerCase().split(/\s+/).filter(Boolean);
      let first = null;
      for (const option of select.querySelectorAll("option[value]:not([value=''])")) {
        const text = `${option.textContent} ${option.value.replaceAll("-", " ")}`.toLowerCase();
        option.hidden = !words.every((w) => text.includes(w));
        if (!option.hidden && !first) first = option;
      }
      for (const group of select.querySelectorAll("optgroup")) {
        group.hidden = !group.querySelector("option:not([hidden])");
      }
      select.value = words.length && first ? first.value : "";
    });
  }
  for (const picker of document.querySelectorAll(".need-picker")) {
    picker.addEventListener("change", (event) => event.stopPropagation());
    picker.addEventListener("input", (event) => event.stopPropagation());
  }
}

// After the matrix updates, the picker starts empty again: its choice is now a chip.
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target && event.detail.target.id !== "matrix_results") return;
  for (const picker of document.querySelectorAll(".need-picker")) {
    for (const field of picker.querySelectorAll("select, input")) {
      if (field.tagName === "SELECT") field.selectedIndex = 0;
      else field.value = "";
    }
    for (const option of picker.querySelectorAll("option, optgroup")) option.hidden = false;
  }
});

// Copy buttons ("Copy link", a new token's "Copy the token") exist in the HTML but stay
// hidden until there is a clipboard to use; `data-copied` says what was copied.
function enableCopyButtons() {
  if (!navigator.clipboard) return;
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = button.dataset.copied || "Link copied";
    });
  }
}
// A team result's unit list follows its metric: each unit names the metrics it fits, and
// the others are hidden once a metric is chosen. Without JavaScript every unit is offered and
// the server says which ones the metric takes. Delegated, so a form swapped in by HTMX needs
// nothing more.
function fitUnits(metricSelect) {
  const form = metricSelect.form;
  const unit = form && form.querySelector("select[data-unit-for]");
  if (!unit) return;
  let first = null;
  for (const option of unit.querySelectorAll("option[data-metrics]")) {
    const fits = !metricSelect.value || option.dataset.metrics.split(" ").includes(metricSelect.value);
    option.hidden = !fits;
    if (fits && !first) first = option;
  }
  const chosen = unit.selectedOptions[0];
  if (metricSelect.value && (!chosen || chosen.hidden || !chosen.value) && first) unit.value = first.value;
}
document.addEventListener("change", (event) => {
  if (event.target.matches && event.target.matches("select[name=metric]")) fitUnits(event.target);
});

// The confirmation after a change stays in a corner of the window until dismissed.
function enableFlashDismiss() {
  for (const banner of document.querySelectorAll(".done-banner.flash")) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Dismiss";
    button.addEventListener("click", () => banner.remove());
    banner.append(button);
  }
}

// Long pages fold their parts into <details>; a link to something inside one (#cap-…,
// #bench-…) opens it, so the reader lands on what the link names.
function openToTarget() {
  let id = "";
  try {
    id = decodeURIComponent(window.location.hash.slice(1));
  } catch {
    return; // a hash that is not valid percent-encoding names nothing here
  }
  const target = id && document.getElementById(id);
  if (!target) return;
  let opened = false;
  for (let el = target.parentElement; el; el = el.parentElement) {
    if (el.tagName === "DETAILS" && !el.open) { el.open = true; opened = true; }
  }
  if (opened) target.scrollIntoView();
}
window.addEventListener("hashchange", openToTarget);

document.addEventListener("DOMContentLoaded", () => {
  openToTarget();
  enableFlashDismiss();
  enableCopyButtons();
  enablePicker();
  if (document.querySelector("#cell_detail.is-panel:not([hidden])")) focusPanel();
});

// The guided flow: after "Next", "Skip" or "change" swaps in the next question, focus moves
// to its heading, so a keyboard or screen-reader user continues from there (WCAG 2.4.3).
document.addEventListener("htmx:afterSwap", (event) => {
  const target = event.detail.target;
  if (!target || target.id !== "decide_flow") return;
  if (new URL(window.location.href).searchParams.get("why")) return; // "why not?" scrolls to its panel
  const heading = document.getElementById("question-heading");
  if (heading) heading.focus();
});

// Phones: the filters fold into a "Filters (n)" drawer, closed at first so the results come
// first. Without JavaScript it stays open. The count follows the form after each swap.
function countFilters(form) {
  const own = [...form.elements, ...document.querySelectorAll(`input[type=hidden][form="${form.id}"]`)];
  return own.filter((field) => {
    if (!field.name || field.name === "sort" || field.name === "page" || field.closest(".need-picker")) return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked;
    if (field.tagName === "SELECT") return field.selectedIndex > 0;
    return ["search", "number", "hidden", "text"].includes(field.type) && field.value !== "";
  }).length;
}
function updateDrawers() {
  for (const drawer of document.querySelectorAll("details.filter-drawer")) {
    const form = drawer.querySelector("form");
    const count = drawer.querySelector(".drawer-count");
    if (!form || !count) continue;
    const n = countFilters(form);
    count.textContent = n ? `(${n})` : "";
  }
}
document.addEventListener("DOMContentLoaded", () => {
  if (window.matchMedia("(max-width: 900px)").matches) {
    for (const drawer of document.querySelectorAll("details.filter-drawer")) drawer.open = false;
  }
});
document.addEventListener("htmx:afterSettle", updateDrawers);
