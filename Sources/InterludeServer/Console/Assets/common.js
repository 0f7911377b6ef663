// Shared helpers of the Interlude console. No framework: DOM built with
// el(), text always set through textContent (tags and beacons are untrusted).
'use strict';

const Console = (() => {
  /** An element: el('td', {class: 'x', title: 't'}, 'text', childNode, …). */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'dataset') Object.assign(node.dataset, value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    append(node, children);
    return node;
  }

  const svgNS = 'http://www.w3.org/2000/svg';
  /** An SVG element with attributes. */
  function svg(tag, attributes, ...children) {
    const node = document.createElementNS(svgNS, tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== undefined && value !== null) node.setAttribute(name, String(value));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }

  /** A link for an http(s) URL (others shown as text), never sending a referrer. */
  function urlNode(url) {
    const text = String(url || '');
    if (/^https?:\/\//i.test(text)) {
      return el('a', {class: 'url', href: text, target: '_blank', rel: 'noopener noreferrer'}, text);
    }
    return el('span', {class: 'url'}, text);
  }

  /** A definition list from [label, value] pairs; null values skipped. */
  function kv(pairs) {
    const list = el('dl', {class: 'kv'});
    for (const [label, value] of pairs) {
      if (value === undefined || value === null || value === '') continue;
      list.append(el('dt', {}, label), el('dd', {}, value));
    }
    return list;
  }

  /** A table from headers and rows of cells (a cell: text, Node, or {text, class}). */
  function table(headers, rows, attributes) {
    const body = el('tbody');
    for (const row of rows) {
      const cells = row.cells || row;
      const tr = el('tr', row.attributes || {});
      for (const cell of cells) {
        if (cell && typeof cell === 'object' && !(cell instanceof Node) && 'text' in cell) {
          tr.append(el('td', {class: cell.class, title: cell.title}, cell.text));
        } else {
          tr.append(el('td', {}, cell));
        }
      }
      body.append(tr);
    }
    return el('table', attributes || {}, el('thead', {}, el('tr', {}, headers.map((h) => el('th', {}, h)))), body);
  }

  /** JSON from the server; an error answer becomes an Error with its message. */
  async function fetchJSON(path, options) {
    const response = await fetch(path, Object.assign({cache: 'no-store', credentials: 'same-origin'}, options || {}));
    const text = await response.text();
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch (error) { body = null; }
    if (!response.ok) {
      const message = body && body.error ? body.error.message : `HTTP ${response.status}`;
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    return body;
  }

  function seconds(value) {
    if (value === undefined || value === null || !isFinite(value)) return '';
    return `${Number(value).toFixed(value >= 100 ? 0 : 1)} s`;
  }

  function milliseconds(value) { return `${Math.round(value * 1000)} ms`; }

  function time(iso) {
    if (!iso) return '';
    const date = new Date(iso);
    if (isNaN(date)) return String(iso);
    return date.toLocaleTimeString([], {hour12: false}) + '.' + String(date.getMilliseconds()).padStart(3, '0');
  }

  function ago(iso) {
    const date = new Date(iso);
    if (isNaN(date)) return '';
    const s = Math.max(0, (Date.now() - date.getTime()) / 1000);
    if (s < 60) return `${Math.round(s)} s ago`;
    if (s < 3600) return `${Math.round(s / 60)} min ago`;
    return `${Math.round(s / 3600)} h ago`;
  }

  /** Hash routing: #inspect, #monitor, #monitor/stream/ID, #monitor/session/ID. */
  const views = {};
  function route() {
    const hash = location.hash.replace(/^#/, '') || 'inspect';
    const [view, ...rest] = hash.split('/');
    for (const section of document.querySelectorAll('.view')) section.hidden = section.id !== view;
    for (const link of document.querySelectorAll('header nav a')) {
      link.classList.toggle('active', link.getAttribute('href') === `#${view}`);
    }
    if (views[view]) views[view](rest.map(decodeURIComponent));
  }
  window.addEventListener('hashchange', route);
  window.addEventListener('DOMContentLoaded', () => setTimeout(route, 0));

  function status(text, down) {
    const node = document.getElementById('server-status');
    if (!node) return;
    node.textContent = text;
    node.classList.toggle('down', !!down);
  }

  return {el, svg, urlNode, kv, table, fetchJSON, seconds, milliseconds, time, ago, views, route, status};
})();
