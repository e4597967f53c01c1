/**
 * Saves text as a file from the browser: a Blob behind a temporary link. The byte order mark lets
 * spreadsheet programs read the CSV as UTF-8 (robot names are not ASCII only).
 */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([`\uFEFF${text}`], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the address is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
