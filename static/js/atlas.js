// Matrix cells open their claims in the side panel. One delegated listener instead of
// htmx attributes on thousands of cells keeps the page small; without JavaScript the
// links simply open the claims page.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-cell]");
  if (!link || !window.htmx || event.metaKey || event.ctrlKey || event.shiftKey || event.button) {
    return;
  }
  event.preventDefault();
  window.htmx.ajax("GET", link.getAttribute("href"), { target: "#cell_detail", swap: "outerHTML" });
});

// "Copy link" buttons exist in the HTML but stay hidden until there is a clipboard to use.
function enableCopyButtons() {
  if (!navigator.clipboard) return;
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = "Link copied";
    });
  }
}
document.addEventListener("DOMContentLoaded", enableCopyButtons);
