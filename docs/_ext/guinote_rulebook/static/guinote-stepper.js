// The worked hand's step-through: one frame at a time, with back and forward buttons and the
// arrow keys. Without this script (or in print) every frame is shown, one after the other.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll(".guinote-stepper")) {
    const frames = Array.from(box.querySelectorAll(":scope > .guinote-frame"));
    if (frames.length < 2) continue;
    let current = 0;
    const bar = document.createElement("div");
    bar.className = "guinote-stepper-bar";
    const back = document.createElement("button");
    const forward = document.createElement("button");
    const where = document.createElement("output");
    back.type = forward.type = "button";
    back.textContent = "◀ " + (box.dataset.back || "Back");
    forward.textContent = (box.dataset.forward || "Forward") + " ▶";
    where.setAttribute("aria-live", "polite");
    bar.append(back, where, forward);
    box.prepend(bar);
    const show = (index) => {
      current = Math.max(0, Math.min(frames.length - 1, index));
      frames.forEach((frame, i) => { frame.hidden = i !== current; });
      where.textContent = `${current + 1} / ${frames.length}`;
      back.disabled = current === 0;
      forward.disabled = current === frames.length - 1;
    };
    back.addEventListener("click", () => show(current - 1));
    forward.addEventListener("click", () => show(current + 1));
    box.tabIndex = 0;
    box.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      show(current + step);
      // the arrows step the hand here; elsewhere the theme uses them to turn the page
      event.preventDefault();
      event.stopPropagation();
    });
    box.classList.add("guinote-stepper-live");
    show(0);
  }
});
