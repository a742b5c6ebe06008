// Drawing a table: Half Moon's arc (as the app lays it out) or a family game's grid, and the
// mechanics of removing a group (no rules here: the service judges every move played).

const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANKS = { A: ["A", "ace"], T: ["10", "10"], J: ["J", "jack"], Q: ["Q", "queen"], K: ["K", "king"] };

// Half Moon's arc on a 4 x 9 grid (docs/rules/halfmoon.md): piles 1-3 up the left side, 4-10 along
// the top, 11-12 down the right side; the reserve inside, R1-R4 above R5-R8. [row, column], 0-based.
const ARC_PILES = [[3, 0], [2, 0], [1, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 7], [1, 8], [2, 8]];
const ARC_RESERVE = [[2, 2], [2, 3], [2, 4], [2, 5], [3, 2], [3, 3], [3, 4], [3, 5]];
// The family presets' grids: places per row (docs/rules/elevens-family.md).
const GRID_COLUMNS = { elevens: 3, "suit-elevens": 5, tens: 5 };

export function cardParts(card) {
  const [rank, rankName] = RANKS[card[0]] || [card[0], card[0]];
  const [suit, suitName] = SUITS[card[1]];
  return { rank, suit, red: card[1] === "D" || card[1] === "H", name: `${rankName} of ${suitName}` };
}

export function cardText(card) {
  const { rank, suit } = cardParts(card);
  return rank + suit;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function face(card, place, options) {
  const { rank, suit, red, name } = cardParts(card);
  const button = el("button", `card ${red ? "red" : "black"}`);
  button.type = "button";
  button.dataset.place = place;
  button.dataset.card = card;
  button.setAttribute("aria-label", `${place.startsWith("R") ? "reserve " + place : "pile " + place}: ${name}`);
  button.append(el("span", "rank", rank), el("span", "suit", suit));
  if (options.highlight?.has(place)) button.classList.add("next");
  if (options.selected?.has(place)) {
    button.classList.add("selected");
    button.setAttribute("aria-pressed", "true");
  }
  if (options.onPick) {
    button.addEventListener("click", () => options.onPick(place));
  } else {
    button.tabIndex = -1;
    button.setAttribute("aria-disabled", "true");
  }
  return button;
}

// One place: its playable card (or an empty slot), the cards under it as backs with a count
// (or, revealed, by name, the next one first), and its label.
function placeNode(cards, place, options) {
  const node = el("div", "place");
  const top = cards.length ? cards[cards.length - 1] : null;
  node.append(top ? face(top, place, options) : el("div", "card empty", "·"));
  const under = cards.slice(0, -1).reverse();
  if (under.length && !options.reveal) {
    const back = el("div", "backs", `▮${under.length}`);
    back.title = `${under.length} face-down card${under.length === 1 ? "" : "s"}`;
    node.append(back);
  } else if (under.length) {
    const list = el("div", "under");
    for (const card of under) {
      const { red } = cardParts(card);
      list.append(el("span", red ? "red" : "black", cardText(card)));
    }
    node.append(list);
  }
  node.append(el("div", "label", place));
  return node;
}

export function drawBoard(container, position, options = {}) {
  container.replaceChildren();
  const piles = position.piles;
  const reserve = position.reserve || [];
  const arc = piles.length === 12 && reserve.length === 8 && !position.stock;
  const columns = arc ? 9 : GRID_COLUMNS[position.game] || Math.min(piles.length, 5);
  container.className = `board ${arc ? "arc" : "grid"}`;
  container.style.setProperty("--columns", columns);
  piles.forEach((pile, index) => {
    const node = placeNode(pile, String(index + 1), options);
    if (arc) {
      node.style.gridRow = ARC_PILES[index][0] + 1;
      node.style.gridColumn = ARC_PILES[index][1] + 1;
    }
    container.append(node);
  });
  reserve.forEach((card, index) => {
    const node = placeNode(card ? [card] : [], `R${index + 1}`, options);
    node.classList.add("reserve");
    if (arc) {
      node.style.gridRow = ARC_RESERVE[index][0] + 1;
      node.style.gridColumn = ARC_RESERVE[index][1] + 1;
    }
    container.append(node);
  });
  if (position.stock) {
    const stock = el("div", "stock");
    const count = position.stock.length;
    stock.append(el("span", "backs", `▮${count}`), el("span", "", ` stock (${count} face down)`));
    if (options.reveal && count) {
      const list = el("div", "under row");
      for (const card of position.stock) list.append(el("span", cardParts(card).red ? "red" : "black", cardText(card)));
      stock.append(list);
    }
    container.append(stock);
  }
}

// The position after removing the cards at `places` (a move's text such as "4+10+R3"): the
// mechanics only; with a stock, every empty pile in place order gets the next stock card.
export function applyMove(position, move) {
  const piles = position.piles.map((pile) => pile.slice());
  const reserve = (position.reserve || []).slice();
  for (const place of move.split("+")) {
    if (place.startsWith("R")) reserve[Number(place.slice(1)) - 1] = null;
    else piles[Number(place) - 1].pop();
  }
  const next = { ...position, piles, reserve };
  if (position.stock) {
    const stock = position.stock.slice();
    piles.forEach((pile) => {
      if (!pile.length && stock.length) pile.push(stock.shift());
    });
    next.stock = stock;
  }
  return next;
}

export function cardsOf(position, move) {
  return move.split("+").map((place) => (place.startsWith("R")
    ? position.reserve[Number(place.slice(1)) - 1]
    : position.piles[Number(place) - 1].at(-1)));
}
