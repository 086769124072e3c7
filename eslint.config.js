// ESLint for the browser client (scripts/lint-js.sh): the recommended rules, on ES modules in
// the browser; static/sw.js is the service worker.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    // `const { view, ...rest } = g` leaves `view` out on purpose
    rules: { "no-unused-vars": ["error", { ignoreRestSiblings: true }] },
  },
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    files: ["static/sw.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.serviceworker },
    },
  },
];
