// Each game's own module and stylesheet, loaded when the room plays that game.
import { h } from "./dom.js";

// The server names each game's script and stylesheet (hashed in production): the page
// loads the room's game, and another game only when the room switches to it.
const ASSETS = JSON.parse(document.getElementById("game-assets").textContent);
export const modules = {};
const loading = {};

// The table view (a TV) also takes the game's table rules, which no phone downloads.
const TABLE = document.getElementById("room").dataset.table === "1";

function loadStylesheet(name) {
  if (document.querySelector(`link[data-game-css="${name}"]`)) return Promise.resolve();
  const hrefs = TABLE ? [ASSETS[name].css, ASSETS[name].table_css] : [ASSETS[name].css];
  return Promise.all(hrefs.map((href) => new Promise((resolve) => {
    const link = h("link", { rel: "stylesheet", href, dataset: { gameCss: name } });
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  })));
}

// A game's translations come before its module, which may use them as it loads.
function loadCatalogue(name) {
  if (document.querySelector(`script[data-game-i18n="${name}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = h("script", { src: ASSETS[name].i18n, dataset: { gameI18n: name } });
    script.addEventListener("load", resolve);
    script.addEventListener("error", () => { script.remove(); reject(new Error(`${name}: no translations`)); });
    document.head.append(script);
  });
}

export const knows = (name) => Boolean(ASSETS[name]);

// Resolves once both are in, so the game never shows unstyled.
export function loadGame(name) {
  if (!loading[name]) {
    const script = loadCatalogue(name).then(() => import(ASSETS[name].js));
    loading[name] = Promise.all([script, loadStylesheet(name)]).then(([module]) => {
      modules[name] = module;
      return module;
    }, (error) => {
      delete loading[name];  // the next push tries again
      throw error;
    });
  }
  return loading[name];
}

// Only the playing game's rules apply: another game's stylesheet is switched off.
export function useStylesheet(name) {
  for (const link of document.querySelectorAll("link[data-game-css]")) link.disabled = link.dataset.gameCss !== name;
}
