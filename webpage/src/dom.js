// dom.js — the page's elements, looked up by id, and its status line, where every part of the
// page tells the user what happened.
export const $ = (id) => document.getElementById(id)

export function status(text) { $("status").textContent = text }
