// Every page: the language switcher submits as soon as a language is picked.
const select = document.getElementById("lang-select");
if (select) select.addEventListener("change", () => select.form.submit());
