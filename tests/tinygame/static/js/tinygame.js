// Tally's page module: the exports every game module gives the room page.
export function render(container, state) {
  const play = state.play;
  container.textContent = play ? `north ${play.counts.north} · south ${play.counts.south}` : "";
}
export const title = () => "Tally";
export const houseRulesSummary = () => "";
export const howtoSection = () => "";
