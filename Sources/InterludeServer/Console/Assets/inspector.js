// The tag inspector: sends the tag (URL or XML) to POST /api/inspect and
// draws the report `interlude inspect --json` gives for it.
'use strict';

(() => {
  const {el, urlNode, kv, table, fetchJSON, seconds, milliseconds} = Console;

  function problemRow(problem) {
    const where = problem.line ? `line ${problem.line}${problem.column ? `, column ${problem.column}` : ''}` : '';
    return {
      attributes: {class: `problem ${problem.severity}`, 'data-code': problem.code},
      cells: [problem.severity, el('span', {class: 'vast-code'}, `VAST ${problem.code}`), where, problem.message],
    };
  }

  function problems(report) {
    const list = [];
    if (report.error) list.push(report.error);
    for (const diagnostic of report.diagnostics || []) list.push(diagnostic);
    if (!list.length) return null;
    return el('div', {class: 'panel', id: 'inspect-problems'},
      el('h3', {}, `Errors and warnings (${list.length})`),
      table(['severity', 'code', 'where', 'message'], list.map(problemRow)));
  }

  function hops(report) {
    if (!report.hops || !report.hops.length) return null;
    const rows = report.hops.map((hop) => ({
      attributes: {class: hop.failure || (hop.status && hop.status >= 400) ? 'hop error' : 'hop', 'data-depth': hop.depth},
      cells: [
        String(hop.depth), hop.status === undefined || hop.status === null ? '—' : String(hop.status),
        milliseconds(hop.seconds || 0), `${hop.bytes} B`,
        el('span', {}, urlNode(hop.url), hop.redirectedTo ? el('div', {class: 'muted'}, '→ redirected to ', urlNode(hop.redirectedTo)) : null),
        hop.failure ? el('span', {class: 'error-text'}, hop.failure) : '',
      ],
    }));
    return el('div', {class: 'panel', id: 'inspect-hops'},
      el('h3', {}, `Wrapper chain, hop by hop (${report.hops.length} fetch${report.hops.length === 1 ? '' : 'es'})`),
      table(['depth', 'status', 'time', 'size', 'URL', 'failure'], rows));
  }

  function counts(object) {
    const entries = Object.entries(object || {});
    if (!entries.length) return null;
    return entries.sort().map(([event, count]) => el('span', {class: 'badge'}, `${event}${count > 1 ? ` ×${count}` : ''}`));
  }

  function adCard(ad, index) {
    const title = [ad.sequence ? `#${ad.sequence}` : `ad ${index + 1}`, ad.id ? `id ${ad.id}` : '(no id)', ad.title || ''].filter(Boolean).join(' · ');
    const card = el('div', {class: `ad-card ${ad.kind}`, dataset: {adId: ad.id || '', kind: ad.kind}},
      el('h4', {}, title, ' ',
        el('span', {class: `badge ${ad.playable ? 'ok' : 'error'}`}, ad.playable ? 'playable' : 'not playable'),
        el('span', {class: 'badge'}, ad.kind)),
      kv([
        ['ad system', ad.adSystem], ['duration', ad.duration !== undefined && ad.duration !== null ? seconds(ad.duration) : null],
        ['skip offset', ad.skipOffset], ['UI hideable', ad.uiHideable === undefined || ad.uiHideable === null ? null : String(ad.uiHideable)],
        ['wrapper target', ad.vastAdTagURI ? urlNode(ad.vastAdTagURI) : null],
        ['wrapper chain', ad.wrapperChain && ad.wrapperChain.length ? ad.wrapperChain.join(' → ') : null],
        ['click-through', ad.clickThrough ? urlNode(ad.clickThrough) : null],
        ['impressions', ad.impressions !== undefined ? String(Array.isArray(ad.impressions) ? ad.impressions.length : ad.impressions) : null],
        ['tracking', counts(ad.trackingEvents)],
        ['error URLs', ad.errorURLs && ad.errorURLs.length ? el('div', {}, ad.errorURLs.map((u) => el('div', {}, urlNode(u)))) : null],
      ]));
    if (ad.mediaFiles && ad.mediaFiles.length) {
      card.append(table(['media file', 'type', 'delivery', 'size', 'bitrate'], ad.mediaFiles.map((file) => [
        urlNode(file.url), file.type || '', file.delivery || '',
        file.width && file.height ? `${file.width}×${file.height}` : '', file.bitrate ? `${file.bitrate} kbps` : '',
      ])));
    }
    return card;
  }

  function vastSection(vast, heading) {
    const section = el('div', {class: 'vast'},
      el('h3', {}, heading || `VAST ${vast.version || '(no version)'} · ${vast.structure} · ${vast.ads.length} ad(s)`));
    vast.ads.forEach((ad, index) => section.append(adCard(ad, index)));
    if (vast.errorURLs && vast.errorURLs.length) {
      section.append(el('div', {class: 'muted'}, 'document Error URLs: ', vast.errorURLs.map((u) => el('div', {}, urlNode(u)))));
    }
    return section;
  }

  function vmapSection(vmap) {
    const section = el('div', {class: 'panel vmap'}, el('h3', {}, `VMAP ${vmap.version || ''} · ${vmap.adBreaks.length} break(s)`));
    for (const adBreak of vmap.adBreaks) {
      const box = el('div', {class: 'ad-card wrapper break', dataset: {breakId: adBreak.breakId || ''}},
        el('h4', {}, `${adBreak.breakId || '(no id)'} at ${adBreak.timeOffset}`, ' ',
          el('span', {class: 'badge'}, (adBreak.breakTypes || []).join(', ')), el('span', {class: 'badge'}, adBreak.source)),
        kv([['ad tag', adBreak.adTagURI ? urlNode(adBreak.adTagURI) : null], ['repeats after', adBreak.repeatAfter],
          ['break tracking', counts(adBreak.trackingEvents)]]));
      if (adBreak.vast) box.append(vastSection(adBreak.vast));
      section.append(box);
    }
    return section;
  }

  /** Every http(s) URL anywhere in the report, with where it was found. */
  function everyURL(report) {
    const found = [];
    const seen = new Set();
    (function walk(value, path, context) {
      if (typeof value === 'string') {
        const match = /^(\d{3}) (https?:\/\/.*)$/.exec(value);
        const url = match ? match[2] : value;
        if (/^https?:\/\//i.test(url) && !seen.has(path + url)) {
          seen.add(path + url);
          found.push({path: context || path, url, code: match ? match[1] : ''});
        }
      } else if (Array.isArray(value)) {
        value.forEach((item, index) => walk(item, `${path}[${index}]`, context));
      } else if (value && typeof value === 'object') {
        const label = value.event ? `${path} (${value.event}${value.offset ? ' ' + value.offset : ''})` : null;
        for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key, label && key === 'url' ? label : null);
      }
    })(report, '', null);
    if (!found.length) return null;
    return el('details', {class: 'panel', id: 'inspect-urls'},
      el('summary', {}, `Every URL (${found.length})`),
      table(['where', 'URL'], found.map((item) => [el('span', {class: 'mono'}, item.path + (item.code ? ` (code ${item.code})` : '')), urlNode(item.url)])));
  }

  function render(report, elapsed) {
    const result = document.getElementById('inspect-result');
    result.replaceChildren();
    const kind = report.kind === 'invalid' ? 'not a playable document' : report.kind.toUpperCase();
    result.dataset.kind = report.kind;
    result.dataset.playable = String(report.playable);
    const summary = el('div', {class: 'panel', id: 'inspect-summary'},
      el('div', {class: 'summary'}, el('strong', {}, kind), ' ',
        el('span', {class: `badge ${report.playable ? 'ok' : 'error'}`}, report.playable ? 'playable' : 'not playable'),
        el('span', {class: 'muted small'}, ` answered in ${Math.round(elapsed)} ms`)));
    if (report.error) {
      const where = report.error.line ? ` (line ${report.error.line}${report.error.column ? `, column ${report.error.column}` : ''})` : '';
      summary.append(el('div', {class: 'error-box', 'data-code': report.error.code},
        el('strong', {}, `VAST error ${report.error.code}`), `: ${report.error.message}${where}`));
    }
    result.append(summary);
    for (const part of [problems(report), hops(report)]) if (part) result.append(part);
    if (report.resolvedAds) {
      const section = el('div', {class: 'panel', id: 'inspect-ads'},
        el('h3', {}, `${report.resolvedAds.length} ad(s) after wrapper resolution`));
      report.resolvedAds.forEach((ad, index) => section.append(adCard(ad, index)));
      result.append(section);
    } else if (report.vast) {
      result.append(el('div', {class: 'panel', id: 'inspect-ads'}, vastSection(report.vast)));
    }
    if (report.vmap) result.append(vmapSection(report.vmap));
    if (report.errorPings && report.errorPings.length) {
      result.append(el('div', {class: 'panel', id: 'inspect-error-pings'},
        el('h3', {}, 'Error URLs the chain owes a ping (not sent by the inspector)'),
        table(['code', 'URL'], report.errorPings.map((line) => {
          const space = line.indexOf(' ');
          return {attributes: {class: 'error'}, cells: [line.slice(0, space), urlNode(line.slice(space + 1))]};
        }))));
    }
    const urls = everyURL(report);
    if (urls) result.append(urls);
    result.append(el('details', {class: 'panel'}, el('summary', {}, 'The JSON (interlude inspect --json)'),
      el('pre', {id: 'inspect-json'}, JSON.stringify(report, null, 2))));
  }

  async function inspect(event) {
    event.preventDefault();
    const input = document.getElementById('inspect-input').value.trim();
    const state = document.getElementById('inspect-state');
    const button = document.getElementById('inspect-submit');
    const result = document.getElementById('inspect-result');
    if (!input) { state.textContent = 'Paste a tag URL or its XML first.'; return; }
    const body = /^https?:\/\//i.test(input) ? {url: input}
      : {xml: input, strict: document.getElementById('inspect-strict').checked};
    button.disabled = true;
    state.textContent = body.url ? 'Fetching the tag and its wrappers…' : 'Parsing…';
    const started = performance.now();
    try {
      const report = await fetchJSON('/api/inspect', {
        method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body),
      });
      render(report, performance.now() - started);
      state.textContent = '';
    } catch (error) {
      result.replaceChildren(el('div', {class: 'error-box', id: 'inspect-refused', 'data-status': error.status || 0},
        el('strong', {}, error.status ? `HTTP ${error.status}` : 'Failed'), `: ${error.message}`));
      result.dataset.kind = 'refused';
      state.textContent = '';
    } finally {
      button.disabled = false;
      result.dataset.done = String(Date.now());
    }
  }

  window.addEventListener('DOMContentLoaded', () => {
    document.getElementById('inspect-form').addEventListener('submit', inspect);
  });
  Console.views.inspect = () => {};
})();
