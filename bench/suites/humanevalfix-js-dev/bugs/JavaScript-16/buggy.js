
const countDistinctCharacters = (string) => {
  return (new Set(string)).size;

}

