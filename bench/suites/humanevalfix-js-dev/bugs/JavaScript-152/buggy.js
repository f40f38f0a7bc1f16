
const compare = (game, guess) => {
  for (let i = 0; i < guess.length; i++) {
    game[i] -= guess[i]
 if (game[i]<0)
 game[i]=-game[i];
 if (guess[i]!=0)
 game[i]-=guess[i];  }
  return game
}

