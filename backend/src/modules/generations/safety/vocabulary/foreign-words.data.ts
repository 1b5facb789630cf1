/**
 * Common words of other languages written in Latin letters that are not English words, so that
 * a refused text in Spanish, French, German... is reported as "language" rather than "unknown
 * word" (both have the same message; the code is for moderators). Accents are stripped, as in
 * the check. A text is refused for any unknown word anyway: this list only names the reason.
 */
export const FOREIGN_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  `
  el la los las un una unos unas en con y del que por para muy sin sobre playa es esta estoy mi su al lo se como
  pero mas desnuda desnudo foto chica mujer nina sol atardecer caminando sentada
  le les une des du et avec sur dans sans est au aux tres pour je suis moi ma mon sa ses ce cette plage soleil
  nue fille femme photo assise marchant coucher
  der die das ein eine einen und mit auf im ohne ist ich nicht zu vom beim sehr strand nackt madchen frau sonne
  sitzt bei dem den des
  o os as um uma com na no nos nas em sem muito praia nua menina mulher sol pelo pela
  il gli con nel nella sulla sul alla della senza molto spiaggia nuda ragazza donna sole che di da per sono
  het een met op aan zonder bij naakt meisje vrouw zon strand zee van voor niet
  w z na do bez sie jest przy plazy naga dziewczyna kobieta slonce nad pod przez
  ve bir ile icin cok plajda ciplak kiz kadin gunes deniz kenarinda
  di dan yang dengan pantai tanpa sedang telanjang gadis wanita matahari
  tren va voi bai bien khoa than co gai phu nu mat troi
  och med pa utan naken flicka kvinna solen
  og meg uten naken jente kvinne sola
  `
    .split(/\s+/)
    .filter(Boolean),
);
