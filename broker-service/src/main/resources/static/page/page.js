// The live page of one region's broker: plain JavaScript, no library. It calls the broker's REST API
// with the customer's bearer token and reads the live stream (Server-Sent Events) with fetch(), so the
// token travels only in the Authorization header, never in a URL.
'use strict';

const TOKEN_KEY = 'geobroker.token';
const CHART_POINTS = 60;
const MAX_QUANTITY = 100000000;
const MAX_PRICE = 10000000000;
// Fills and order changes (cancelled, expired) are pushed, also those of the other regions whose Kafka the
// broker reads (the stream's hello names them); the page reads its orders and account again only when
// something tells it to (a push, its own action, a reconnected stream, the tab shown again) and, as a safety,
// for what nothing pushes: every 2 s while an order waits in its home region (PENDING: acceptance and
// rejection there are not pushed), else every 30 s (orders placed or cash moved by another client), or every
// 5 s when some region's fills are not pushed (a deployment whose brokers reach only their own Kafka).
const PENDING_REFRESH_MS = 2000;
const SAFETY_REFRESH_MS = 30000;
const UNPUSHED_REFRESH_MS = 5000;
// A second read after a push, for the rows another region's broker wrote to reach this region's DC.
const REPLICATION_REFRESH_MS = 1500;
const CANCELLABLE = new Set(['PENDING', 'OPEN', 'PARTIALLY_FILLED']);
const PROGRESS = {PENDING: 0, OPEN: 1, PARTIALLY_FILLED: 2, FILLED: 3, CANCELLED: 3, EXPIRED: 3, REJECTED: 3};

const state = {
  token: null,
  region: null,
  symbols: new Map(),   // symbol -> {symbol, name, exchange, currency, tickSize, homeRegion}
  prices: new Map(),    // symbol -> {price, volume, sequence, source, change, history: []}
  rows: new Map(),      // symbol -> {tr, cells}
  sort: {key: 'symbol', dir: 1},
  orders: [],
  fills: [],
  fillIds: new Set(),
  pushed: new Map(),    // orderId -> what a push said of the order, until a read of the orders shows as much
  orderRows: new Map(), // orderId -> {key, tr}: a row is redrawn only when what it shows changed
  stream: null,
  refreshTimer: null,
  refreshSoon: null,
  refreshLater: null,
  regions: [],          // every region of the deployment
  pushedRegions: null,  // the regions whose fills and order events the stream carries
};

const $ = (id) => document.getElementById(id);

// ---- money: integer minor units in, text out (the server never sends or takes fractions)

function money(minor) {
  if (minor === null || minor === undefined) {
    return '';
  }
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return sign + Math.floor(abs / 100).toLocaleString('en-US') + '.' + String(abs % 100).padStart(2, '0');
}

/** "12.34" -> 1234; null for text that is not a price with at most two decimals. */
function minorUnits(text) {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) {
    return null;
  }
  return Number(m[1]) * 100 + Number((m[2] || '').padEnd(2, '0'));
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') {
      e.className = v;
    } else if (k.startsWith('data-')) {
      e.setAttribute(k, v);
    } else {
      e[k] = v;
    }
  }
  for (const c of children) {
    e.append(c instanceof Node ? c : document.createTextNode(c === null || c === undefined ? '' : String(c)));
  }
  return e;
}

// ---- REST

async function api(method, path, body) {
  const headers = {Authorization: 'Bearer ' + state.token, Accept: 'application/json'};
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const started = performance.now();
  let res;
  try {
    res = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    return {status: 0, ok: false, body: {title: 'No answer from the broker', detail: String(e)},
      millis: performance.now() - started, retryAfter: null};
  }
  const millis = performance.now() - started;
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    json = {detail: text};
  }
  return {status: res.status, ok: res.ok, body: json, millis, retryAfter: res.headers.get('Retry-After')};
}

// ---- region and sign-in

async function loadRegion() {
  const res = await fetch('/page/v1/region');
  const geo = await res.json();
  state.region = geo.region;
  state.regions = geo.regions.map((r) => r.name);
  const here = geo.regions.find((r) => r.name === geo.region);
  $('served-by').textContent = '— served by ' + geo.region + (here ? ' (' + here.cloudRegion + ', Cassandra DC '
      + here.dataCenter + '; ' + here.exchanges.join(', ') + ' in ' + here.currencies.join(', ') + ')' : '');
  const list = $('regions');
  list.replaceChildren();
  for (const r of geo.regions) {
    const link = el('a', {href: r.pageUrl}, r.name + ' (' + r.exchanges.join(', ') + ')');
    if (r.name === geo.region) {
      link.setAttribute('aria-current', 'page');
    }
    list.append(el('li', {}, link));
  }
}

async function signIn(token) {
  state.token = token;
  const check = await api('GET', '/api/v1/account/summary');
  if (check.status === 401) {
    state.token = null;
    sessionStorage.removeItem(TOKEN_KEY);
    $('connection').textContent = 'That token was not accepted (401).';
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  $('login-section').hidden = true;
  $('app').hidden = false;
  $('customer').textContent = check.body && check.body.customerId ? check.body.customerId : '';
  renderSummary(check.body);
  await loadSymbols();
  await refresh();
  openStream();
}

/** The next safety read: soon while an order waits in its home region, else seldom. */
function scheduleSafetyRefresh() {
  clearTimeout(state.refreshTimer);
  const waiting = state.orders.some((o) => o.status === 'PENDING');
  const allPushed = state.pushedRegions !== null && state.regions.every((r) => state.pushedRegions.includes(r));
  state.refreshTimer = setTimeout(() => {
    if (document.hidden) {
      scheduleSafetyRefresh();
    } else {
      refresh();
    }
  }, waiting ? PENDING_REFRESH_MS : allPushed ? SAFETY_REFRESH_MS : UNPUSHED_REFRESH_MS);
}

function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  location.reload();
}

// ---- prices

async function loadSymbols() {
  const res = await api('GET', '/api/v1/symbols');
  const list = $('symbol-list');
  list.replaceChildren();
  for (const s of res.body) {
    if (!s.homeRegion) {
      continue; // an exchange no region of this deployment trades
    }
    state.symbols.set(s.symbol, s);
    list.append(el('option', {value: s.symbol}, s.name));
  }
  buildPriceRows();
}

function buildPriceRows() {
  const body = $('prices').tBodies[0];
  body.replaceChildren();
  for (const s of state.symbols.values()) {
    const cells = {
      price: el('td', {class: 'num price'}, '—'),
      change: el('td', {class: 'num change'}),
      volume: el('td', {class: 'num volume'}),
      chart: el('td', {}),
      source: el('td', {class: 'source'}),
    };
    const polyline = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', 'chart');
    svg.setAttribute('viewBox', '0 0 90 20');
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', s.symbol + ' recent prices');
    svg.append(polyline);
    cells.chart.append(svg);
    cells.polyline = polyline;
    const trade = el('button', {type: 'button', class: 'trade'}, 'Trade');
    trade.setAttribute('aria-label', 'Trade ' + s.symbol);
    trade.addEventListener('click', () => {
      $('o-symbol').value = s.symbol;
      symbolChanged();
      $('o-quantity').focus();
    });
    const tr = el('tr', {'data-symbol': s.symbol, class: s.homeRegion === state.region ? 'local' : 'remote'},
        el('td', {title: s.name + ' (' + s.sector + ')'}, s.symbol), el('td', {}, s.homeRegion),
        el('td', {}, s.exchange), el('td', {}, s.currency), cells.price, cells.change, cells.volume, cells.chart,
        cells.source, el('td', {}, trade));
    state.rows.set(s.symbol, {tr, cells});
    body.append(tr);
  }
  for (const p of state.prices.keys()) {
    paintPrice(p);
  }
  sortPrices();
}

function onPrices(prices) {
  for (const p of prices) {
    const known = state.prices.get(p.symbol);
    if (known && known.sequence >= p.sequence) {
      continue;
    }
    const entry = known || {history: []};
    entry.change = known ? p.price - known.price : 0;
    entry.price = p.price;
    entry.volume = p.volume;
    entry.sequence = p.sequence;
    entry.source = p.source;
    entry.history.push(p.price);
    if (entry.history.length > CHART_POINTS) {
      entry.history.shift();
    }
    state.prices.set(p.symbol, entry);
    paintPrice(p.symbol);
  }
}

function paintPrice(symbol) {
  const row = state.rows.get(symbol);
  const p = state.prices.get(symbol);
  if (!row || !p) {
    return;
  }
  const c = row.cells;
  c.price.textContent = money(p.price);
  c.change.textContent = p.change === 0 ? '0.00' : (p.change > 0 ? '+' : '') + money(p.change);
  c.change.className = 'num change' + (p.change > 0 ? ' up' : p.change < 0 ? ' down' : '');
  c.volume.textContent = p.volume.toLocaleString('en-US');
  c.source.textContent = p.source;
  const h = p.history;
  const min = Math.min(...h);
  const max = Math.max(...h);
  const span = max - min || 1;
  const step = h.length > 1 ? 90 / (h.length - 1) : 0;
  c.polyline.setAttribute('points', h.map((v, i) => (i * step).toFixed(1) + ',' + (19 - ((v - min) / span) * 18).toFixed(1)).join(' '));
}

function sortValue(symbol, key) {
  const s = state.symbols.get(symbol);
  const p = state.prices.get(symbol);
  switch (key) {
    case 'home': return s.homeRegion;
    case 'exchange': return s.exchange;
    case 'currency': return s.currency;
    case 'price': return p ? p.price : -Infinity;
    case 'change': return p ? p.change : -Infinity;
    case 'volume': return p ? p.volume : -Infinity;
    default: return symbol;
  }
}

function sortPrices() {
  const {key, dir} = state.sort;
  const symbols = [...state.rows.keys()].sort((a, b) => {
    const va = sortValue(a, key);
    const vb = sortValue(b, key);
    return (va < vb ? -1 : va > vb ? 1 : a < b ? -1 : a > b ? 1 : 0) * dir;
  });
  const body = $('prices').tBodies[0];
  for (const s of symbols) {
    body.append(state.rows.get(s).tr);
  }
  for (const th of $('prices').tHead.rows[0].cells) {
    const b = th.querySelector('button');
    if (b) {
      th.setAttribute('aria-sort', b.dataset.sort === key ? (dir > 0 ? 'ascending' : 'descending') : 'none');
    }
  }
}

function filterPrices() {
  const text = $('price-filter').value.trim().toUpperCase();
  for (const [symbol, row] of state.rows) {
    const s = state.symbols.get(symbol);
    row.tr.hidden = text !== '' && !symbol.includes(text) && !s.name.toUpperCase().includes(text)
        && !s.homeRegion.toUpperCase().includes(text) && !s.exchange.includes(text);
  }
}

// ---- the live stream: Server-Sent Events read with fetch(), the token in the Authorization header

function openStream() {
  const controller = new AbortController();
  state.stream = controller;
  readStream(controller).catch(() => {}).finally(() => {
    if (state.stream === controller && state.token) {
      $('connection').textContent = 'Live stream ended; reconnecting…';
      setTimeout(() => {
        if (state.stream === controller && state.token) {
          openStream();
          refresh();
        }
      }, 2000);
    }
  });
}

async function readStream(controller) {
  const res = await fetch('/api/v1/stream', {
    headers: {Authorization: 'Bearer ' + state.token, Accept: 'text/event-stream'},
    signal: controller.signal,
    cache: 'no-store',
  });
  if (!res.ok) {
    $('connection').textContent = 'Live stream refused: ' + res.status;
    return;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const {value, done} = await reader.read();
    if (done) {
      return;
    }
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      dispatch(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
}

function dispatch(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) {
      event = line.slice(6).trim();
    } else if (line.startsWith('data:')) {
      data.push(line.slice(5).replace(/^ /, ''));
    }
  }
  if (data.length === 0) {
    return; // a comment: the stream is alive
  }
  const payload = JSON.parse(data.join('\n'));
  if (event === 'hello') {
    $('connection').textContent = 'Live: prices, fills and cancels pushed by ' + payload.region + '.';
    state.pushedRegions = payload.pushedRegions || [payload.region];
  } else if (event === 'prices') {
    onPrices(payload);
  } else if (event === 'fills') {
    onFills(payload);
  } else if (event === 'orders') {
    onOrderEvents(payload);
  }
}

// ---- fills, orders and the account

function onFills(fills) {
  const body = $('fills').tBodies[0];
  for (const f of fills) {
    if (state.fillIds.has(f.fillId)) {
      continue; // published again after its broker restarted
    }
    state.fillIds.add(f.fillId);
    if (f.orderFilledQuantity !== null && f.orderFilledQuantity !== undefined) {
      const filled = f.orderFilledQuantity === f.orderQuantity;
      pushedOrder({orderId: f.orderId, status: filled ? 'FILLED' : 'PARTIALLY_FILLED',
        filledQuantity: f.orderFilledQuantity, filledNotional: f.orderFilledNotional});
    }
    const symbol = state.symbols.get(f.symbol);
    body.prepend(el('tr', {'data-fill-id': f.fillId, 'data-order-id': f.orderId},
        el('td', {}, new Date(f.durableTimeMicros / 1000).toLocaleTimeString()), el('td', {}, f.symbol),
        el('td', {}, f.side), el('td', {class: 'num'}, f.quantity),
        el('td', {class: 'num'}, money(f.price) + ' ' + (symbol ? symbol.currency : f.currency)),
        el('td', {}, f.region)));
  }
  renderOrders();
  scheduleRefresh();
}

/** Orders cancelled or expired, in this region or at their home region. */
function onOrderEvents(events) {
  for (const e of events) {
    pushedOrder({orderId: e.orderId, status: e.status, filledQuantity: e.filledQuantity, filledNotional: e.filledNotional});
  }
  renderOrders();
  scheduleRefresh();
}

/** Keeps what a push said of an order, and shows it on the order's row if the list holds it. */
function pushedOrder(change) {
  const known = state.pushed.get(change.orderId);
  if (!known || ahead(change, known)) {
    state.pushed.set(change.orderId, change);
  }
  const order = state.orders.find((o) => o.orderId === change.orderId);
  if (order) {
    apply(order, state.pushed.get(change.orderId));
  }
}

function ahead(a, b) {
  return PROGRESS[a.status] > PROGRESS[b.status]
      || (PROGRESS[a.status] === PROGRESS[b.status] && a.filledQuantity > b.filledQuantity);
}

/** An order as a push left it, if that is further along than what was read (a read may lag a push). */
function apply(order, change) {
  if (!change || !ahead(change, order)) {
    return false;
  }
  order.status = change.status;
  order.filledQuantity = change.filledQuantity;
  // an answer's average, or half up to a minor unit from a push's notional, as the API rounds it
  order.averagePrice = change.averagePrice !== undefined ? change.averagePrice : change.filledQuantity > 0
      ? Math.floor((2 * change.filledNotional + change.filledQuantity) / (2 * change.filledQuantity)) : null;
  return true;
}

/** Reads the orders and account now, and once more a moment later (another region's rows replicating). */
function scheduleRefresh() {
  if (state.refreshSoon === null) {
    state.refreshSoon = setTimeout(() => {
      state.refreshSoon = null;
      refresh();
    }, 50);
  }
  clearTimeout(state.refreshLater);
  state.refreshLater = setTimeout(() => {
    state.refreshLater = null;
    refresh();
  }, REPLICATION_REFRESH_MS);
}

async function refresh() {
  if (!state.token) {
    return;
  }
  const [orders, summary] = await Promise.all([api('GET', '/api/v1/orders?pageSize=200'),
    api('GET', '/api/v1/account/summary')]);
  if (orders.ok) {
    state.orders = orders.body.items;
    for (const o of state.orders) {
      if (!apply(o, state.pushed.get(o.orderId))) {
        state.pushed.delete(o.orderId); // the read shows as much as the push did
      }
    }
    renderOrders();
  }
  if (summary.ok) {
    renderSummary(summary.body);
  }
  scheduleSafetyRefresh();
}

/**
 * Draws the order list. A row whose order shows nothing new is kept as it is (the same element), so
 * a read of the orders or a push never swaps a row, or its cancel button, from under the pointer.
 */
function renderOrders() {
  const show = $('orders-filter').value;
  const body = $('orders').tBodies[0];
  const rows = [];
  const drawn = new Map();
  for (const o of state.orders) {
    if (show === 'open' ? !CANCELLABLE.has(o.status) : show !== 'all' && o.status !== show) {
      continue;
    }
    const key = JSON.stringify([o.status, o.filledQuantity, o.averagePrice, o.rejectReason, o.updatedAt]);
    const kept = state.orderRows.get(o.orderId);
    const tr = kept && kept.key === key ? kept.tr : orderRow(o);
    drawn.set(o.orderId, {key, tr});
    rows.push(tr);
  }
  state.orderRows = drawn;
  body.replaceChildren(...rows);
}

function orderRow(o) {
  const cancel = el('td', {});
  if (CANCELLABLE.has(o.status)) {
    const b = el('button', {type: 'button', class: 'cancel'}, 'Cancel');
    b.setAttribute('aria-label', 'Cancel ' + o.side + ' ' + o.quantity + ' ' + o.symbol + ' (' + o.clientOrderId + ')');
    b.addEventListener('click', () => cancelOrder(o));
    cancel.append(b);
  }
  const status = o.status === 'PENDING' ? 'PENDING (in ' + o.homeRegion + ')' : o.status;
  return el('tr', {'data-order-id': o.orderId, 'data-client-order-id': o.clientOrderId, 'data-status': o.status},
      el('td', {}, new Date(o.placedAt).toLocaleTimeString()), el('td', {}, o.symbol), el('td', {}, o.side),
      el('td', {}, o.type + (o.allOrNone ? ' AON' : '') + ' ' + o.timeInForce), el('td', {class: 'num'}, o.quantity),
      el('td', {class: 'num filled'}, o.filledQuantity), el('td', {class: 'num'}, money(o.limitPrice)),
      el('td', {class: 'num'}, money(o.stopPrice)), el('td', {class: 'num'}, money(o.averagePrice)),
      el('td', {class: 'status', title: o.rejectReason || ''}, status), el('td', {}, o.placedRegion),
      el('td', {}, o.homeRegion), cancel);
}

function renderSummary(summary) {
  if (!summary) {
    return;
  }
  $('cash').tBodies[0].replaceChildren(...summary.currencies.map((c) => el('tr', {'data-currency': c.currency},
      el('td', {}, c.currency), el('td', {class: 'num available'}, money(c.cashAvailable)),
      el('td', {class: 'num reserved'}, money(c.cashReserved)), el('td', {class: 'num'}, money(c.holdingsValue)))));
  $('holdings').tBodies[0].replaceChildren(...summary.holdings.map((h) => el('tr', {'data-symbol': h.symbol},
      el('td', {}, h.symbol), el('td', {}, h.currency), el('td', {class: 'num available'}, h.available),
      el('td', {class: 'num reserved'}, h.reserved), el('td', {class: 'num'}, money(h.lastPrice)))));
}

async function cancelOrder(order) {
  const res = await api('DELETE', '/api/v1/orders/' + order.orderId);
  showAnswer(res, 'Cancel ' + order.side + ' ' + order.quantity + ' ' + order.symbol);
  if (res.ok) {
    // the home region's answer: shown at once, even before this region's DC has its row
    const o = res.body;
    pushedOrder({orderId: o.orderId, status: o.status, filledQuantity: o.filledQuantity, averagePrice: o.averagePrice});
    renderOrders();
  }
  scheduleRefresh();
}

// ---- order entry: the server's rules checked before sending

function symbolChanged() {
  const s = state.symbols.get($('o-symbol').value.trim().toUpperCase());
  $('o-symbol-info').textContent = s ? s.name + ': ' + s.exchange + ', ' + s.currency + ', tick ' + money(s.tickSize)
      + ', matched in ' + s.homeRegion + (s.homeRegion === state.region ? ' (here)' : ' (another region)') : '';
}

function typeChanged() {
  const type = $('o-type').value;
  $('o-limit').disabled = !(type === 'LIMIT' || type === 'STOP_LIMIT');
  $('o-stop').disabled = !(type === 'STOP' || type === 'STOP_LIMIT');
  if ($('o-limit').disabled) {
    $('o-limit').value = '';
  }
  if ($('o-stop').disabled) {
    $('o-stop').value = '';
  }
}

function fieldError(input, message) {
  input.setAttribute('aria-invalid', message ? 'true' : 'false');
  $(input.id + '-error').textContent = message || '';
  return message ? 1 : 0;
}

function checkPrice(input, wanted, what, symbol, type) {
  const text = input.value.trim();
  if (!wanted) {
    return {errors: fieldError(input, text ? type + ' orders take no ' + what : null), value: undefined};
  }
  if (!text) {
    return {errors: fieldError(input, type + ' orders need a ' + what), value: undefined};
  }
  const value = minorUnits(text);
  if (value === null || value <= 0 || value > MAX_PRICE) {
    return {errors: fieldError(input, 'a price from 0.01 to ' + money(MAX_PRICE) + ', at most two decimals'), value};
  }
  if (symbol && value % symbol.tickSize !== 0) {
    return {errors: fieldError(input, 'not on ' + symbol.symbol + "'s tick grid: a multiple of " + money(symbol.tickSize)
        + ' ' + symbol.currency), value};
  }
  return {errors: fieldError(input, null), value};
}

/** The request body, or null (with the fields' errors shown) when a rule of the server's is broken. */
function orderRequest() {
  const type = $('o-type').value;
  const symbolText = $('o-symbol').value.trim().toUpperCase();
  const symbol = state.symbols.get(symbolText);
  let errors = fieldError($('o-symbol'), symbol ? null : symbolText ? symbolText + ' is not a listed symbol' : 'choose a symbol');
  const qText = $('o-quantity').value.trim();
  const quantity = /^\d{1,9}$/.test(qText) ? Number(qText) : NaN;
  errors += fieldError($('o-quantity'), quantity >= 1 && quantity <= MAX_QUANTITY ? null
      : 'a whole number of shares from 1 to ' + MAX_QUANTITY.toLocaleString('en-US'));
  const limit = checkPrice($('o-limit'), type === 'LIMIT' || type === 'STOP_LIMIT', 'limit price', symbol, type);
  const stop = checkPrice($('o-stop'), type === 'STOP' || type === 'STOP_LIMIT', 'stop price', symbol, type);
  errors += limit.errors + stop.errors;
  if (errors > 0) {
    return null;
  }
  const request = {
    clientOrderId: 'web-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 8),
    symbol: symbol.symbol,
    side: document.querySelector('input[name="side"]:checked').value,
    type,
    quantity,
    timeInForce: $('o-tif').value,
    allOrNone: $('o-aon').checked,
  };
  if (limit.value !== undefined) {
    request.limitPrice = limit.value;
  }
  if (stop.value !== undefined) {
    request.stopPrice = stop.value;
  }
  return request;
}

async function placeOrder(event) {
  event.preventDefault();
  const request = orderRequest();
  if (!request) {
    $('order-result').replaceChildren(el('p', {class: 'problem'}, 'Not sent: correct the fields marked above.'));
    const invalid = document.querySelector('#order-form [aria-invalid="true"]');
    if (invalid) {
      invalid.focus();
    }
    return;
  }
  const what = request.side + ' ' + request.quantity + ' ' + request.symbol + ' ' + request.type
      + (request.limitPrice ? ' limit ' + money(request.limitPrice) : '') + (request.stopPrice ? ' stop ' + money(request.stopPrice) : '');
  const res = await api('POST', '/api/v1/orders', request);
  showAnswer(res, what);
  const answer = res.ok ? res.status + ' ' + res.body.status : res.status + ' ' + (res.body && res.body.title || '');
  $('placements').tBodies[0].prepend(el('tr', {'data-client-order-id': request.clientOrderId},
      el('td', {}, new Date().toLocaleTimeString()), el('td', {}, what), el('td', {class: 'answer'}, answer),
      el('td', {class: 'num millis'}, res.millis.toFixed(0) + ' ms')));
  refresh();
}

/** An answer of the broker: the order it holds, or its problem details (every field, and Retry-After). */
function showAnswer(res, what) {
  const box = $('order-result');
  const rows = [];
  const add = (k, v) => rows.push(el('dt', {}, k), el('dd', {'data-field': k}, v));
  if (res.ok) {
    const o = res.body;
    add('status', res.status + ' ' + o.status + (o.status === 'PENDING' ? ' — stored here, matched in ' + o.homeRegion : ''));
    add('order', o.orderId);
    if (o.averagePrice) {
      add('average price', money(o.averagePrice));
    }
    add('answer time', res.millis.toFixed(0) + ' ms' + (o.homeRegion !== state.region && o.type === 'MARKET'
        ? ' (round trip to ' + o.homeRegion + ')' : ''));
    box.replaceChildren(el('div', {class: 'accepted'}, el('strong', {}, what), el('dl', {}, ...rows)));
    return;
  }
  const p = res.body || {};
  add('status', res.status);
  for (const [k, v] of Object.entries(p)) {
    if (k !== 'status') {
      add(k, typeof v === 'object' && v !== null ? (v.status ? v.status + (v.rejectReason ? ': ' + v.rejectReason : '') : JSON.stringify(v)) : v);
    }
  }
  if (res.retryAfter) {
    add('Retry-After', res.retryAfter + ' s — try again then');
  }
  add('answer time', res.millis.toFixed(0) + ' ms');
  box.replaceChildren(el('div', {class: 'problem'}, el('strong', {}, what + ': refused'), el('dl', {}, ...rows)));
}

// ---- wiring

document.addEventListener('DOMContentLoaded', () => {
  loadRegion().catch(() => {
    $('served-by').textContent = '(region unknown)';
  });
  $('login-form').addEventListener('submit', (e) => {
    e.preventDefault();
    signIn($('token').value.trim());
  });
  $('logout').addEventListener('click', signOut);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && state.token) {
      refresh();
    }
  });
  $('order-form').addEventListener('submit', placeOrder);
  $('o-symbol').addEventListener('input', symbolChanged);
  $('o-type').addEventListener('change', typeChanged);
  $('orders-filter').addEventListener('change', renderOrders);
  $('price-filter').addEventListener('input', filterPrices);
  for (const b of $('prices').tHead.querySelectorAll('button[data-sort]')) {
    b.addEventListener('click', () => {
      state.sort = {key: b.dataset.sort, dir: state.sort.key === b.dataset.sort ? -state.sort.dir : 1};
      sortPrices();
    });
  }
  typeChanged();
  const saved = sessionStorage.getItem(TOKEN_KEY);
  if (saved) {
    signIn(saved);
  }
});
