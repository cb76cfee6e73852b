import { at } from '../../../kit/dates.ts';
import { html, type Html } from '../../../kit/html.ts';
import { monthPicker, number, splitTables, type Usage } from './usage-split-view.ts';

// The usage page: this month's quota, each key's current minute, and calls per day as a server-drawn chart.

type RateWindow = NonNullable<Usage['rateWindows']>[number];

const NO_WINDOWS = 'The rate windows live in the API servers; none answers in this process.';

function rateRow(w: RateWindow): Html {
  const resets = w.used === 0 ? 'opens at the next call' : `${w.resetsAt.slice(11, 19)} UTC`;
  return html`<tr><td data-label="Key">${w.name} <code>${w.prefix}</code></td>\
<td data-label="Used this minute">${w.used} of ${w.limit}</td>
<td data-label="Remaining">${w.remaining}</td><td data-label="Window resets">${resets}</td></tr>`;
}

function rateTable(windows: Usage['rateWindows']): Html {
  if (windows === null) return html`<p class="note">${NO_WINDOWS}</p>`;
  if (windows.length === 0) return html`<p class="note">No active key.</p>`;
  return html`<table class="list"><thead><tr><th>Key</th><th>Used this minute</th><th>Remaining</th>\
<th>Window resets</th></tr></thead><tbody>
${windows.map(rateRow)}
</tbody></table>`;
}

function quotaPart(usage: Usage): Html {
  const { quota } = usage;
  const percent = quota.limit === 0 ? 100 : Math.min(100, Math.round((quota.used / quota.limit) * 1000) / 10);
  if (!usage.current) {
    return html`<h2>${usage.month} (UTC)</h2>
<p><strong>${number(quota.used)}</strong> calls counted of the ${number(quota.limit)} the plan allows a month.</p>`;
  }
  return html`<h2>This month (${usage.month}, UTC)</h2>
<p><strong>${number(quota.used)}</strong> of ${number(quota.limit)} calls used · \
<strong>${number(quota.remaining)}</strong> remaining · resets ${at(quota.resetsAt)}</p>
<div class="meter" role="meter" aria-label="Monthly quota used" aria-valuemin="0" aria-valuemax="${quota.limit}" \
aria-valuenow="${quota.used}" aria-valuetext="${percent} %"><span style="width:${percent}%"></span></div>`;
}

export function usageView(usage: Usage, path: string): Html {
  return html`${monthPicker(usage, path)}
${quotaPart(usage)}
<h2>Calls per day</h2>
${dailyChart(usage.days, usage.current ? 'this month' : usage.month)}
${splitTables(usage)}
${usage.current ? html`<h2>This minute</h2>${rateTable(usage.rateWindows)}` : ''}`;
}

// Drawn at about a phone's width, so that its 12-unit labels stay at least 12 px there; wider
// screens scale it up to 480 px. The left margin holds "100,000"; the day labels are at least
// three bars apart, so that two never overlap.
const WIDTH = 360;
const HEIGHT = 180;
const PAD = { top: 10, right: 10, bottom: 26, left: 56 };
const LABEL_GAP = 3;

/** A bar per day, drawn on the server as SVG: no script, with the figures as an accessible table too. */
export function dailyChart(days: { day: string; calls: number }[], when: string): Html {
  const max = Math.max(1, ...days.map((d) => d.calls));
  const top = niceCeiling(max);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(days.length, 1);
  const barW = Math.max(1, slot * 0.7);
  const bars = days.map((d, i) => {
    const h = (d.calls / top) * plotH;
    const x = PAD.left + i * slot + (slot - barW) / 2;
    const y = PAD.top + plotH - h;
    return html`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" \
fill="#2b6cb0">\
<title>${d.day}: ${d.calls} calls</title></rect>`;
  });
  const ticks = [0, top / 2, top].map((v) => {
    const y = PAD.top + plotH - (v / top) * plotH;
    const lineY = y.toFixed(1);
    return html`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${lineY}" y2="${lineY}" stroke="#ccc"/>\
<text x="${PAD.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end" font-size="12">${number(v)}</text>`;
  });
  const labels = labelledDays(days.length).map((i) => {
    const x = (PAD.left + i * slot + slot / 2).toFixed(1);
    return html`<text x="${x}" y="${HEIGHT - 8}" text-anchor="middle" font-size="12">${i + 1}</text>`;
  });
  const total = days.reduce((sum, d) => sum + d.calls, 0);
  return html`<figure>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-labelledby="chart-title" \
style="max-width:480px;height:auto">
<title id="chart-title">API calls per day, ${when}: ${number(total)} in all</title>
${ticks}${bars}${labels}
</svg>
<figcaption class="note">Day of the month (UTC). Each day’s figure is in the table below.</figcaption>
<details><summary>Calls per day, as figures</summary>\
<table class="list"><thead><tr><th>Day</th><th>Calls</th></tr></thead><tbody>
${days.map((d) => html`<tr><td data-label="Day">${d.day}</td><td data-label="Calls">${d.calls}</td></tr>`)}
</tbody></table></details>
</figure>`;
}

/** The days labelled under the chart (indexes): the 1st, every 5th and the last, a 5th too close to the last giving way. */
export function labelledDays(count: number): number[] {
  const shown: number[] = [];
  for (let i = 0; i < count; i++) {
    if (!(i === 0 || (i + 1) % 5 === 0 || i === count - 1)) continue;
    const previous = shown[shown.length - 1];
    if (previous === undefined || i - previous >= LABEL_GAP) shown.push(i);
    else if (i === count - 1 && previous !== 0) shown[shown.length - 1] = i;
  }
  return shown;
}

/** 1, 2 or 5 times a power of ten, at least `n`. */
function niceCeiling(n: number): number {
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * power >= n) return step * power;
  return 10 * power;
}
