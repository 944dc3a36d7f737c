// "Choose your rules" (directives/club.py): each reading becomes a choice; the club starts from a
// profile, changes what it plays its own way, and prints its rules or downloads the profile file
// for `guinote-conformance run --profile-file`. Everything runs in the page, offline.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const club = document.querySelector(".guinote-club");
  if (!club) {
    return;
  }
  const base = club.querySelector(".guinote-club-base");
  const name = club.querySelector(".guinote-club-name");
  const sheet = club.querySelector(".guinote-club-sheet");
  const preview = club.querySelector(".guinote-club-toml");
  const words = sheet.dataset;
  const flags = [];
  for (const block of club.querySelectorAll(".guinote-club-flag")) {
    const flag = block.querySelector(".guinote-club-key").dataset.flag;
    const question = block.querySelector(".guinote-club-question");
    const values = [];
    for (const choice of block.querySelectorAll(".guinote-club-value")) {
      const key = choice.querySelector(".guinote-club-key");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = `guinote-club-${flag}`;
      input.value = key.dataset.value;
      input.className = "guinote-club-radio";
      input.setAttribute("aria-label", choice.querySelector(".guinote-club-reading").textContent.trim());
      choice.prepend(input);
      choice.addEventListener("click", (event) => {
        if (event.target.closest("a")) {
          return; // a source's link
        }
        input.checked = true;
        update();
      });
      values.push({ choice, input, profiles: key.dataset.profiles.split(" ") });
    }
    flags.push({ flag, question, values });
  }

  const cleanName = () => (name.value.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 40) || "our_club");
  const chosen = (entry) => entry.values.find((value) => value.input.checked);

  function preset() {
    for (const entry of flags) {
      for (const value of entry.values) {
        value.input.checked = value.profiles.includes(base.value);
      }
    }
    update();
  }

  function toml() {
    const file = cleanName();
    const lines = [
      `# ${words.sheet}: ${file}`,
      `# ${words.check} ${file}.toml`,
      `name = "${file}"`,
      `base = "${base.value}"`,
      "",
      "[flags]",
    ];
    for (const entry of flags) {
      const value = chosen(entry);
      if (value) {
        lines.push(`${entry.flag} = "${value.input.value}"`);
      }
    }
    return lines.join("\n") + "\n";
  }

  function fillSheet() {
    sheet.replaceChildren();
    const title = document.createElement("h1");
    title.textContent = `${words.sheet}: ${cleanName()}`;
    const based = document.createElement("p");
    based.textContent = `${words.based} ${base.value}.`;
    const list = document.createElement("dl");
    for (const entry of flags) {
      const term = document.createElement("dt");
      term.textContent = entry.question.textContent.trim();
      const reading = document.createElement("dd");
      const value = chosen(entry);
      if (value) {
        reading.textContent = value.choice.querySelector(".guinote-club-reading").textContent.trim();
        const sources = value.choice.querySelector(".guinote-sources");
        if (sources) {
          reading.append(` (${sources.textContent.trim()})`);
        }
      } else {
        reading.textContent = words.none;
      }
      list.append(term, reading);
    }
    const check = document.createElement("p");
    check.textContent = `${words.check} ${cleanName()}.toml`;
    sheet.append(title, based, list, check);
  }

  function update() {
    for (const entry of flags) {
      for (const value of entry.values) {
        value.choice.classList.toggle("guinote-club-chosen", value.input.checked);
      }
    }
    preview.textContent = toml();
    fillSheet();
  }

  club.querySelector(".guinote-club-print").addEventListener("click", () => {
    fillSheet();
    window.print();
  });
  club.querySelector(".guinote-club-download").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([toml()], { type: "application/toml" }));
    link.download = `${cleanName()}.toml`;
    document.body.append(link);
    link.click();
    link.remove();
  });
  base.addEventListener("change", preset);
  name.addEventListener("input", update);
  for (const hidden of club.querySelectorAll("[hidden]")) {
    hidden.hidden = false; // the controls need the script: shown only where it runs
  }
  club.classList.add("guinote-club-ready");
  preset();
});
