// The stream activity monitor: pod-serving streams and client-side
// sessions, newest first, polled every second; a stream's timeline drawn to
// scale with its events placed on it as they are verified, and a preview of
// the stitched stream; a session's beacons against the ads it was served.
'use strict';

(() => {
  const {el, svg, urlNode, kv, table, fetchJSON, seconds, time, ago, status} = Console;
  const pollMilliseconds = 1000;
  let selected = null;     // {kind: 'stream'|'session', id}
  let timer = null;
  let previewFor = null;   // the stream whose <video> is on the page

  // MARK: the list

  async function refreshList() {
    const [streams, sessions] = await Promise.all([
      fetchJSON('/api/console/streams?limit=100').catch((error) => ({streams: [], error})),
      fetchJSON('/api/console/sessions?limit=100').catch((error) => ({sessions: [], error})),
    ]);
    const failure = streams.error || sessions.error;
    status(failure ? `server: ${failure.message}` : `updated ${time(new Date().toISOString())}`, !!failure);
    const items = [];
    for (const stream of streams.streams || []) {
      items.push({kind: 'stream', id: stream.streamID, at: stream.lastActivityAt || stream.createdAt, data: stream});
    }
    for (const session of sessions.sessions || []) {
      items.push({kind: 'session', id: session.session, at: session.lastActivityAt, data: session});
    }
    items.sort((a, b) => (b.at || '').localeCompare(a.at || ''));
    const list = document.getElementById('activity-list');
    list.replaceChildren(...items.map(listItem));
    document.getElementById('activity-empty').hidden = items.length > 0;
  }

  function listItem(item) {
    const isSelected = selected && selected.kind === item.kind && selected.id === item.id;
    const data = item.data;
    let badges;
    let meta;
    if (item.kind === 'stream') {
      badges = [el('span', {class: 'badge'}, `${data.kind} stream`),
        data.expired ? el('span', {class: 'badge warn'}, 'expired') : null,
        data.beaconsAbandoned || data.failedAttempts ? el('span', {class: 'badge error'}, 'beacon failures') : null];
      meta = `${data.breaks} break(s) · ${data.eventsVerified} event(s) verified · ${ago(item.at)}`;
    } else {
      badges = [el('span', {class: 'badge'}, `session${data.document ? ` · ${data.document}` : ''}`),
        data.errors ? el('span', {class: 'badge error'}, `${data.errors} error(s)`) : null];
      meta = `${data.beacons} beacon(s) · ${ago(item.at)}`;
    }
    return el('li', {class: isSelected ? 'selected' : null, dataset: {kind: item.kind, id: item.id}},
      el('a', {href: `#monitor/${item.kind}/${encodeURIComponent(item.id)}`},
        el('div', {}, badges), el('div', {class: 'id'}, item.id), el('div', {class: 'meta'}, meta)));
  }

  // MARK: the timeline

  const width = 1000;

  /** An SVG timeline of `model` (spans and events on one axis, to scale). */
  function timeline(model) {
    const duration = Math.max(1, model.duration);
    const x = (t) => 10 + (Math.max(0, Math.min(duration, t)) / duration) * (width - 20);
    const drawing = svg('svg', {class: 'timeline', viewBox: `0 0 ${width} 132`, role: 'img',
      'aria-label': `timeline of ${seconds(duration)}`, 'data-events': model.events.length, 'data-axis': model.axis});
    const spans = svg('g', {class: 'spans'});
    for (const span of model.spans) {
      const left = x(span.start);
      const right = x(span.start + span.duration);
      const y = span.kind === 'break' ? 22 : 26;
      const height = span.kind === 'break' ? 40 : 32;
      const rect = svg('rect', {class: span.kind, x: left, y, width: Math.max(1, right - left), height,
        'data-break': span.breakID, 'data-ad': span.adID});
      rect.append(svg('title', {}, `${span.kind}${span.label ? ` ${span.label}` : ''}: ${seconds(span.start)} – ${seconds(span.start + span.duration)}`));
      spans.append(rect);
      if (span.kind === 'ad' && right - left > 40 && span.label) {
        spans.append(svg('text', {x: left + 3, y: 46}, span.label.slice(0, Math.floor((right - left) / 7))));
      }
      if (span.kind === 'break') spans.append(svg('text', {x: left, y: 16}, span.breakID || 'break'));
    }
    drawing.append(spans);
    const events = svg('g', {class: 'events'});
    for (const event of model.events) {
      const cx = x(event.at);
      const circle = svg('circle', {class: `event ${event.state}`, cx, cy: 76, r: 4.5,
        'data-event': event.id, 'data-state': event.state});
      circle.append(svg('title', {}, `${event.type} of ${event.adID}${event.verifiedAt ? ` verified ${time(event.verifiedAt)}` : ' not verified'}` +
        ` · beacons sent ${event.beaconsSent}, pending ${event.beaconsPending}, abandoned ${event.beaconsAbandoned}`));
      events.append(circle);
      for (let index = 0; index < event.beaconsSent + event.beaconsAbandoned; index++) {
        events.append(svg('rect', {class: `beacon ${index >= event.beaconsSent ? 'error' : ''}`, x: cx - 2, y: 86 + index * 6, width: 4, height: 4}));
      }
    }
    drawing.append(events);
    const axis = svg('g', {class: 'axis'});
    const step = niceStep(duration);
    for (let t = 0; t <= duration + 0.001; t += step) {
      axis.append(svg('line', {x1: x(t), x2: x(t), y1: 64, y2: 68, stroke: '#999'}));
      const atEnd = x(t) > width - 40;  // the last label ends at the axis' end instead of running off it
      axis.append(svg('text', {x: atEnd ? x(t) : x(t) - 8, y: 126, 'text-anchor': atEnd ? 'end' : null},
        model.axis === 'wall' ? `+${formatClock(t)}` : formatClock(t)));
    }
    if (model.now !== undefined && model.now !== null) axis.append(svg('line', {class: 'now', x1: x(model.now), x2: x(model.now), y1: 10, y2: 112}));
    drawing.append(axis);
    return drawing;
  }

  function niceStep(duration) {
    for (const step of [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600]) if (duration / step <= 12) return step;
    return 7200;
  }

  function formatClock(t) {
    const m = Math.floor(t / 60);
    const s = Math.round(t % 60);
    return `${m}:${String(s).padStart(2, '0')}`;
  }

  function legend() {
    return el('div', {class: 'legend'},
      el('span', {}, el('i', {class: 'l-content'}), 'content'), el('span', {}, el('i', {class: 'l-ad'}), 'ad'),
      el('span', {}, el('i', {class: 'l-slate'}), 'slate'), el('span', {}, el('i', {class: 'l-verified'}), 'event verified'),
      el('span', {}, el('i', {class: 'l-pending'}), 'not yet'), el('span', {}, el('i', {class: 'l-beacon'}), 'beacon fired'),
      el('span', {}, el('i', {class: 'l-error'}), 'failed'));
  }

  // MARK: a stream

  async function showStream(id) {
    const detail = document.getElementById('detail');
    let answer;
    try {
      answer = await fetchJSON(`/api/console/streams/${encodeURIComponent(id)}`);
    } catch (error) {
      detail.replaceChildren(el('div', {class: 'error-box', id: 'detail-error'}, error.message));
      previewFor = null;
      return;
    }
    if (!selected || selected.id !== id) return;
    const report = answer.stream;
    const video = previewFor === id ? document.getElementById('preview') : null;
    const head = el('div', {class: 'panel', id: 'stream-detail', dataset: {streamId: report.stream_id}},
      el('h2', {}, `${report.kind === 'vod' ? 'VOD' : 'Live'} stream `, el('span', {class: 'mono'}, report.stream_id),
        report.expired ? el('span', {class: 'badge warn'}, ' expired') : null),
      kv([['network', report.network_code], ['asset', report.custom_asset_key], ['registered', time(report.created_at)],
        ['valid until', time(report.valid_until)],
        ['targeting', Object.entries(report.targeting || {}).map(([k, v]) => `${k}=${v}`).join(' ') || null],
        ['events verified', String(report.events_verified)],
        ['beacons', el('span', {}, `${report.beacons.sent} sent, ${report.beacons.pending} pending, `,
          el('span', {class: report.beacons.abandoned ? 'error-text' : ''}, `${report.beacons.abandoned} abandoned`),
          report.beacons.failed_attempts ? el('span', {class: 'error-text'}, `, ${report.beacons.failed_attempts} failed attempts`) : '')],
        ['collector', urlNode(report.collector_url)]]));
    const time_ = el('div', {class: 'panel'}, el('h3', {}, answer.timeline.axis === 'wall'
      ? 'Timeline (wall clock since registration; breaks where they were decided)'
      : 'Timeline (stream time, ads stitched in)'), timeline(answer.timeline), legend());
    const preview = el('div', {class: 'panel'}, el('h3', {}, 'Stitched stream'));
    if (answer.preview) {
      preview.append(el('div', {}, urlNode(answer.preview)));
      preview.append(video || el('video', {id: 'preview', controls: true, muted: true, playsinline: true, preload: 'metadata', src: answer.preview}));
      previewFor = id;
    } else {
      preview.append(el('p', {class: 'muted'}, answer.previewUnavailable || 'no stitched URL for this stream'));
      previewFor = null;
    }
    // Verified events first, in the order they were verified (ISO times compare as text), then the rest in play order.
    const order = (event) => event.verifiedAt ? `0${event.verifiedAt}` : '1';
    const events = answer.timeline.events.slice().sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : a.at - b.at));
    const eventTable = el('div', {class: 'panel'}, el('h3', {}, `Events (${events.length}; verified ones in the order they arrived)`),
      table(['verified', 'break', 'ad', 'event', 'at', 'beacons sent', 'pending', 'abandoned', 'last failure'], events.map((event) => ({
        attributes: {class: event.state === 'failed' ? 'error' : event.state, dataset: {event: event.id}},
        cells: [event.verifiedAt ? time(event.verifiedAt) : '—', event.breakID, event.adID, event.type, seconds(event.at),
          String(event.beaconsSent), String(event.beaconsPending), String(event.beaconsAbandoned),
          event.error ? {text: event.error, class: 'error-text'} : ''],
      })), {id: 'stream-events'}));
    const arrivals = answer.timeline.beacons || [];
    const beaconTable = el('div', {class: 'panel'}, el('h3', {}, `Server-side beacons the collector received (${arrivals.length}, in arrival order)`),
      table(['#', 'received', 'ad', 'beacon', 'event', 'at'], arrivals.map((beacon) => ({
        attributes: {class: beacon.event === 'error' || !beacon.eventID ? 'error' : null, dataset: {event: beacon.eventID || ''}},
        cells: [String(beacon.id), time(beacon.receivedAt), beacon.ad, beacon.event,
          beacon.eventID ? (events.find((e) => e.id === beacon.eventID) || {}).type || '' : 'no event of this stream',
          beacon.at === null || beacon.at === undefined ? '' : seconds(beacon.at)],
      })), {id: 'stream-beacons'}));
    detail.replaceChildren(head, time_, preview, eventTable, beaconTable);
  }

  // MARK: a client-side session

  const gridEvents = ['impression', 'creativeView', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'skip', 'breakStart', 'breakEnd', 'error'];

  async function showSession(id) {
    const detail = document.getElementById('detail');
    let report;
    try {
      report = await fetchJSON(`/api/console/sessions/${encodeURIComponent(id)}`);
    } catch (error) {
      detail.replaceChildren(el('div', {class: 'error-box', id: 'detail-error'}, error.message));
      return;
    }
    if (!selected || selected.id !== id) return;
    previewFor = null;
    const head = el('div', {class: 'panel', id: 'session-detail', dataset: {session: report.session}},
      el('h2', {}, 'Client-side session ', el('span', {class: 'mono'}, report.session)),
      kv([['document', report.document ? `${report.document}, served ${time(report.servedAt)}` : 'not served by this process'],
        ['URL', report.documentURL ? urlNode(report.documentURL) : null], ['beacons', String(report.beacons.length)],
        ['owed, not received', el('span', {class: report.missing.length ? 'error-text' : ''}, String(report.missing.length))],
        ['received too often', el('span', {class: report.duplicated.length ? 'error-text' : ''}, String(report.duplicated.length))],
        ['error beacons', el('span', {class: report.errors ? 'error-text' : ''}, String(report.errors))]]));
    const expected = new Map(report.expectations.map((e) => [`${e.ad}\u0000${e.event}`, e]));
    const received = new Map();
    for (const beacon of report.beacons) {
      const key = `${beacon.ad}\u0000${beacon.event}`;
      received.set(key, (received.get(key) || 0) + 1);
    }
    const rows = [];
    const uses = new Map();  // the k-th use of an ad id (a creative in two breaks) owes its k-th beacons
    const use = (id) => { uses.set(id, (uses.get(id) || 0) + 1); return uses.get(id); };
    for (const adBreak of report.breaks) {
      const breakKey = `break-${adBreak.id}`;
      rows.push(gridRow(breakKey, use(breakKey), `break ${adBreak.id} (${adBreak.timeOffset})`, expected, received));
      for (const ad of adBreak.ads) {
        rows.push(gridRow(ad.id, use(ad.id), `  ${ad.position}. ${ad.id} ${ad.title ? '· ' + ad.title : ''} (${seconds(ad.duration)})`, expected, received));
      }
    }
    for (const extra of report.unexpected) {
      if (!rows.some((row) => row.attributes.dataset.ad === extra.ad)) rows.push(gridRow(extra.ad, 1, `${extra.ad} (not in the document)`, expected, received));
    }
    const grid = el('div', {class: 'panel'}, el('h3', {}, 'Owed and received, per ad (✔ as owed · ✘ missing or extra · n received, not owed)'),
      table(['ad', ...gridEvents], rows, {class: 'grid-events', id: 'session-grid'}));
    if (report.missing.length) {
      grid.append(el('div', {class: 'error-box', id: 'session-missing'}, 'Owed and not received: ',
        report.missing.map((m) => `${m.ad} ${m.event} (owed ${m.owed}, got ${m.received})`).join('; ')));
    }
    const spans = [];
    const first = report.beacons.length ? new Date(report.beacons[0].receivedAt).getTime() : 0;
    const last = report.beacons.length ? new Date(report.beacons[report.beacons.length - 1].receivedAt).getTime() : 0;
    const arrivals = report.beacons.map((beacon) => ({
      id: String(beacon.id), type: beacon.event, adID: beacon.ad, breakID: '', at: (new Date(beacon.receivedAt).getTime() - first) / 1000,
      verifiedAt: beacon.receivedAt, beaconsSent: 0, beaconsPending: 0, beaconsAbandoned: 0, state: beacon.event === 'error' ? 'failed' : 'verified',
    }));
    const arrivalTimeline = el('div', {class: 'panel'}, el('h3', {}, 'Beacons as they arrived (wall clock)'),
      timeline({axis: 'wall', duration: Math.max(1, (last - first) / 1000), spans, events: arrivals}));
    const beaconTable = el('div', {class: 'panel'}, el('h3', {}, 'Beacons in arrival order'),
      table(['#', 'received', 'ad', 'event', 'macros'], report.beacons.map((beacon) => ({
        attributes: {class: beacon.event === 'error' ? 'error' : null, dataset: {event: beacon.event, ad: beacon.ad}},
        cells: [String(beacon.id), time(beacon.receivedAt), beacon.ad, beacon.event,
          el('span', {class: 'mono'}, Object.entries(beacon.macros || {}).map(([k, v]) => `${k}=${v}`).join(' '))],
      })), {id: 'session-beacons'}));
    detail.replaceChildren(head, grid, arrivalTimeline, beaconTable);
  }

  /** One row of the grid: the `use`-th appearance of `ad` in the document. */
  function gridRow(ad, use, label, expected, received) {
    const cells = [label];
    for (const event of gridEvents) {
      const key = `${ad}\u0000${event}`;
      const owed = expected.get(key);
      const count = received.get(key) || 0;
      const last = !owed || use >= owed.owed;  // the last owed use also shows beacons beyond what is owed
      if (owed && owed.owed >= use) {
        const missing = count < use;
        const extra = last && count > owed.owed;
        cells.push({text: missing ? '✘ missing' : (extra ? `✘ ×${count}` : '✔'), class: missing ? 'owed-missing' : (extra ? 'owed-extra' : 'owed-ok'),
          title: `owed ${owed.owed}, received ${count}`});
      } else if (use === 1 && count && !owed) {
        cells.push({text: String(count), class: event === 'error' ? 'owed-extra' : 'muted', title: 'received, not owed'});
      } else {
        cells.push({text: '·', class: 'muted'});
      }
    }
    return {attributes: {dataset: {ad}}, cells};
  }

  // MARK: polling

  let generation = 0;      // one polling loop at a time: a new selection starts a new one

  async function tick(mine) {
    try {
      await refreshList();
      if (selected && selected.kind === 'stream') await showStream(selected.id);
      if (selected && selected.kind === 'session') await showSession(selected.id);
    } finally {
      if (mine === generation && !document.getElementById('monitor').hidden) {
        timer = setTimeout(() => tick(mine), pollMilliseconds);
      }
    }
  }

  Console.views.monitor = (path) => {
    const [kind, id] = path;
    selected = (kind === 'stream' || kind === 'session') && id ? {kind, id} : null;
    if (!selected) {
      document.getElementById('detail').replaceChildren(el('p', {class: 'muted'}, 'Pick a stream or a session.'));
      previewFor = null;
    }
    clearTimeout(timer);
    generation += 1;
    tick(generation);
  };
})();
