// The two scripts of the administration pages, served by Packline itself (`script-src 'self'`).

/**
 * Progressive enhancement of a page whose region `[data-refresh]` waits for something (a test
 * event being delivered): the region is fetched again every 2 seconds, for at most a minute, until
 * it holds nothing marked `[data-pending]`. Without script the page says to reload it.
 */
export const REFRESH_SCRIPT = `// Refreshes [data-refresh] regions while they hold pending items.
for (const region of document.querySelectorAll('[data-refresh]')) {
  let rounds = 0;
  const status = document.querySelector('[data-refresh-status]');
  const tick = async () => {
    rounds += 1;
    try {
      const answer = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!answer.ok) return;
      const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
      const fresh = page.getElementById(region.id);
      if (!fresh) return;
      if (fresh.innerHTML !== region.innerHTML) {
        region.innerHTML = fresh.innerHTML;
        if (status) status.textContent = 'The deliveries below were updated.';
      }
      if (!region.querySelector('[data-pending]')) return;
    } catch {
      return;
    }
    if (rounds < 30) setTimeout(tick, 2000);
  };
  if (region.querySelector('[data-pending]')) setTimeout(tick, 2000);
}
`;

/** The copy button of a secret shown once. */
export const COPY_SCRIPT = `// The copy button of a secret shown once: shown only where the clipboard can be written.
for (const button of document.querySelectorAll('button[data-copy]')) {
  if (!navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const status = document.querySelector('[data-copy-status]');
    try {
      await navigator.clipboard.writeText(document.getElementById(button.dataset.copy).textContent.trim());
      if (status) status.textContent = 'Copied.';
    } catch {
      if (status) status.textContent = 'Copy failed: select the text and copy it.';
    }
  });
}
`;
