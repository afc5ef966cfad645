/* referee's picture of a position: draws the plain data a game's picture module made from the referee's own state
   (docs/report.md, "Pictures: what a game draws") — player areas, card groups, facts, a board as SVG. It knows no
   rule and no game. One copy, used by the report page (inlined) and by the live scorekeeper page (served).
   Every text is written with textContent, never parsed as HTML.

   RefereePicture.draw(container, picture, players): picture is {text?, active?, blocks: {key: block}} (the blocks in
   order), players the names by seat (for a board's workers). The small helpers the pages share come with it. */
var RefereePicture = (function () {
  'use strict';

  var SVG = 'http://www.w3.org/2000/svg';
  var LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    for (var key in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, key)) node.setAttribute(key, String(attrs[key]));
    }
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function seatClass(seat) {
    var n = Number(seat);
    return Number.isInteger(n) && n >= 0 ? 'seat-' + (n % 8) : 'seat-none';
  }

  function colourClass(colour) {
    return typeof colour === 'string' && /^[a-z]{1,20}$/.test(colour) ? 'colour-' + colour : 'colour-none';
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function draw(box, picture, players) {
    clear(box);
    if (!picture || typeof picture !== 'object') return;
    if (picture.text) box.appendChild(el('pre', 'state-text', picture.text));
    var blocks = picture.blocks && typeof picture.blocks === 'object' ? picture.blocks : {};
    Object.keys(blocks).forEach(function (key) {
      var block = blocks[key];
      if (!block || typeof block !== 'object') return;
      var node;
      if (block.kind === 'player') node = drawPlayer(block, picture.active);
      else if (block.kind === 'cards') node = drawCardsBlock(block);
      else if (block.kind === 'facts') node = drawFacts(block);
      else if (block.kind === 'grid') node = drawGrid(block, players || []);
      else {
        node = el('section', 'block');
        node.appendChild(el('h3', null, block.title || key));
        node.appendChild(el('pre', 'state-text', JSON.stringify(block, null, 1)));
      }
      node.dataset.block = key;
      box.appendChild(node);
    });
  }

  function drawCard(card) {
    var li = el('li', 'card ' + colourClass(card.colour));
    li.dataset.card = card.name;
    li.appendChild(el('span', 'name', card.name));
    if (card.note) li.appendChild(el('span', 'note', card.note));
    if (card.badge) li.appendChild(el('span', 'badge', card.badge));
    li.title = [card.name, card.note, card.badge].filter(Boolean).join(' — ');
    return li;
  }

  function drawGroup(group) {
    var box = el('div', 'group');
    box.dataset.group = group.key || group.title;
    var cards = group.cards || [];
    box.appendChild(el('h4', null, group.title + ' (' + cards.length + ')'));
    var list = el('ul', 'cards');
    cards.forEach(function (card) { list.appendChild(drawCard(card)); });
    if (!cards.length) list.appendChild(el('li', 'empty', '—'));
    box.appendChild(list);
    return box;
  }

  function drawPlayer(block, active) {
    var box = el('section', 'block player ' + seatClass(block.seat));
    if (block.seat === active) box.classList.add('active');
    box.dataset.player = block.name;
    box.dataset.seat = block.seat;
    var h = el('h3');
    h.appendChild(el('span', 'swatch'));
    h.appendChild(el('span', 'player-name', block.name));
    if (block.seat === active) h.appendChild(el('span', 'to-act', 'to act'));
    box.appendChild(h);
    var stats = el('dl', 'stats');
    Object.keys(block.stats || {}).forEach(function (name) {
      var item = el('div');
      item.appendChild(el('dt', null, name));
      var dd = el('dd', null, block.stats[name]);
      dd.dataset.stat = name;
      item.appendChild(dd);
      stats.appendChild(item);
    });
    box.appendChild(stats);
    (block.groups || []).forEach(function (group) { box.appendChild(drawGroup(group)); });
    (block.notes || []).forEach(function (note) { box.appendChild(el('p', 'note', note)); });
    return box;
  }

  function drawCardsBlock(block) {
    var box = el('section', 'block cards-block');
    box.appendChild(el('h3', null, block.title || ''));
    (block.groups || []).forEach(function (group) { box.appendChild(drawGroup(group)); });
    return box;
  }

  function drawFacts(block) {
    var box = el('section', 'block facts');
    box.appendChild(el('h3', null, block.title || ''));
    var list = el('dl');
    Object.keys(block.items || {}).forEach(function (name) {
      var item = el('div');
      item.appendChild(el('dt', null, name));
      var dd = el('dd', null, block.items[name]);
      dd.dataset.fact = name;
      item.appendChild(dd);
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
  }

  function drawGrid(block, players) {
    var box = el('section', 'block grid');
    box.appendChild(el('h3', null, block.title || ''));
    var width = block.width | 0, height = block.height | 0, size = 52, margin = 22;
    var image = svg('svg', { viewBox: '0 0 ' + (2 * margin + width * size) + ' ' + (2 * margin + height * size),
      width: 2 * margin + width * size, height: 2 * margin + height * size, role: 'img', class: 'board' });
    image.appendChild(svg('title', {}, block.title || 'board'));
    for (var c = 0; c < width; c += 1) {
      var letter = String.fromCharCode(97 + c);
      image.appendChild(svg('text', { x: margin + c * size + size / 2, y: margin - 7, class: 'axis' }, letter));
      image.appendChild(svg('text', { x: margin + c * size + size / 2, y: margin + height * size + 16, class: 'axis' },
        letter));
    }
    for (var r = 0; r < height; r += 1) {
      image.appendChild(svg('text', { x: margin / 2, y: margin + r * size + size / 2 + 4, class: 'axis' }, height - r));
    }
    (block.cells || []).forEach(function (cell, i) {
      var x = margin + (i % width) * size, y = margin + Math.floor(i / width) * size;
      if (!cell) {
        image.appendChild(svg('rect', { x: x, y: y, width: size, height: size, class: 'void' }));
        return;
      }
      var level = Math.max(0, Math.min(3, cell.level | 0));
      var g = svg('g', { class: 'cell', 'data-square': cell.square, 'data-level': cell.level });
      var words = [cell.square + ': level ' + cell.level];
      g.appendChild(svg('rect', { x: x + 1, y: y + 1, width: size - 2, height: size - 2, class: 'level level-' + level }));
      for (var k = 1; k <= level; k += 1) {
        var inset = 4 + 5 * k;
        g.appendChild(svg('rect', { x: x + inset, y: y + inset, width: size - 2 * inset, height: size - 2 * inset,
          class: 'storey' }));
      }
      g.appendChild(svg('text', { x: x + 6, y: y + 13, class: 'level-number' }, cell.level));
      if (cell.roof) {
        g.setAttribute('data-roof', 'true');
        g.appendChild(svg('circle', { cx: x + size / 2, cy: y + size / 2, r: size / 5, class: 'roof' }));
        words.push('rooftop');
      }
      if (cell.sky) {
        g.setAttribute('data-sky', 'true');
        g.appendChild(svg('rect', { x: x + size * 0.3, y: y + size * 0.12, width: size * 0.4, height: size * 0.76,
          class: 'sky' }));
        g.appendChild(svg('text', { x: x + size / 2, y: y + size / 2 + 5, class: 'sky-label' }, 'S'));
        words.push('skyscraper');
      }
      if (cell.worker !== undefined && cell.worker !== null) {
        g.setAttribute('data-worker', cell.worker);
        g.appendChild(svg('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.27,
          class: 'worker ' + seatClass(cell.worker) }));
        g.appendChild(svg('text', { x: x + size / 2, y: y + size / 2 + 5, class: 'worker-label' },
          LETTERS.charAt(cell.worker % 26)));
        words.push('worker of ' + (players[cell.worker] || 'seat ' + cell.worker));
      }
      g.insertBefore(svg('title', {}, words.join(', ')), g.firstChild);
      image.appendChild(g);
    });
    box.appendChild(image);
    var legend = el('ul', 'legend');
    (block.legend || []).forEach(function (item) {
      var li = el('li', seatClass(item.seat));
      li.appendChild(el('span', 'swatch'));
      li.appendChild(el('span', null, LETTERS.charAt(item.seat % 26) + ' = ' + item.name));
      if (item.note) li.appendChild(el('span', 'mark', '★ ' + item.note));
      legend.appendChild(li);
    });
    box.appendChild(legend);
    return box;
  }

  return { draw: draw, el: el, svg: svg, clear: clear, seatClass: seatClass };
})();
