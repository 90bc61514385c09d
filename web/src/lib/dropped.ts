// What a file dropped onto the page is, told from its name and type alone (the readers of each
// kind are loaded when one comes).

/** Whether a dropped file is meant for the overlay (rather than an exported figure). */
export const isJsonFile = (f: { name: string; type: string }) => f.type === 'application/json' || /\.json$/i.test(f.name);
