// Counts as people read them: "1 capability", "2 capabilities", "0 articles".
export const counted = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
