"""The checker's criterion details, in English (the ``detail`` of the JSON), Dutch and Frisian.

A detail is a message id with arguments.  ``rulebook check`` writes the English text as
``detail`` and, as an extension of the JSON, the id and arguments as ``message`` and ``args``,
so that the site can show the detail in the page's language.  An argument is a string or a
number, inserted as it is (moves, squares and positions are written the same in every
language), or a list of items: each item is a list written with the template ``<id>.<name>``
and the items are joined with "; ".  An item's words ``white`` and ``black`` are translated.
"""

from __future__ import annotations

from typing import Final

Argument = str | int | list[list[str | int]]
CRITERIA: Final = ("A", "B1", "B2", "B3", "B4", "C", "D", "E", "F", "G")
"""The criteria of the Problemistenwedstrijd, in the rulebook's order."""

MESSAGES: Final[dict[str, dict[str, str]]] = {
    "en": {
        "not_examined": "not examined (only the win was asked for)",
        "a_pass": "White wins (proved), key {keys}",
        "a_fail": "White cannot force a win: every first move was refuted",
        "a_undecided": "undecided (time limit): no winning key proved; still open: {keys}",
        "a_undecided_line": "undecided (time limit): no winning key proved; still open: {keys}; "
        "the search stopped in the line {line}",
        "b1_white_pieces": "White has {count} pieces; a side starts with 20",
        "b1_black_pieces": "Black has {count} pieces; a side starts with 20",
        "b1_black_to_move": "Black is to move: a problem starts with White to move",
        "b1_no_white": "White has no pieces",
        "b1_no_last_move": "Black has no legal last move into this position (no quiet move or "
        "capture leads here from a legal position with Black to move)",
        "b1_undecided": "undecided: no legal last move of Black was found among the first "
        "{tried} positions it could have been played from, and not every one was tried",
        "b1_pass": "necessary conditions hold: {white} white and {black} black pieces "
        "({captured_black} black and {captured_white} white pieces captured), Black's last move "
        "could be {last}; no game from the start position was constructed (not proven reachable)",
        "b2_fail": "White has more material ({white_men} men, {white_kings} kings against "
        "{black_men} men, {black_kings} kings)",
        "b2_pass": "White {white} pieces, Black {black}",
        "b3_fail": "kings on {squares}",
        "b3_pass": "no kings",
        "b4_fail": "a black piece is en prise: White can capture at once ({captures})",
        "b4_pass": "White has no capture at the start",
        "not_proved": "the win is not proved",
        "c_cook": "cook: more than one winning key: {keys}; a line that wins: {lines}",
        "c_cook_combination": "cook: more than one winning key: {keys}; a line that wins: "
        "{lines} (the second solution is itself a combination: the jury may allow it, art. 2C)",
        "c_cook_line": "cook in the combination: {duals}",
        "c_cook_line.duals": "after {0}: {1} all win",
        "c_cook_line_more": "cook in the combination: {duals} (+{count} more)",
        "c_cook_line_more.duals": "after {0}: {1} all win",
        "c_remark": "dual in a variation or after a forced Black capture: {duals}",
        "c_remark.duals": "after {0}: {1} all win",
        "c_remark_more": "dual in a variation or after a forced Black capture: {duals} "
        "(+{count} more)",
        "c_remark_more.duals": "after {0}: {1} all win",
        "c_undecided": "undecided (time limit): {later} later alternatives undecided",
        "c_undecided_cut": "undecided (time limit): the solution tree was not walked to the end "
        "({later} later alternatives undecided)",
        "c_undecided_keys": "undecided (time limit): keys not refuted: {keys}; {later} later "
        "alternatives undecided",
        "c_pass": "one winning key and one winning move at every White turn of the solution tree, "
        "up to the end of the problem ({count} positions; harmless alternatives are listed as "
        "information)",
        "d_needs_key": "needs a legal solution whose key wins",
        "d_fail": "idle: {men} (the solution works without it, with no second solution and a "
        "legal start)",
        "d_fail.men": "{0} man on {1}",
        "d_undecided": "undecided (time limit) for the men on {men}",
        "d_undecided.men": "{0} {1}",
        "d_pass": "each of the {count} men is needed: without it the solution fails",
        "no_solution": "no proved solution to examine",
        "e_fail": "interchangeable: {pairs} (either order wins)",
        "e_fail.pairs": "{0} and {1}",
        "e_undecided": "undecided (time limit)",
        "e_pass": "no two White moves can change places",
        "f_no_solution": "no legal solution to examine",
        "f_white_wins": "the solution ends the game: White wins (the other side cannot move)",
        "f_black_wins": "the solution ends the game: Black wins (the other side cannot move)",
        "f_pass": "the solution ends in an ending that is proved won for White",
        "f_fail": "the solution stops in a position White cannot win: {fen}",
        "f_undecided": "undecided (time limit): the position where the solution stops was not "
        "proved won",
        "g_fail": "the final phase is not won in one way: after {line}: {moves} all win",
        "g_undecided": "undecided (time limit): the final phase was not fully examined",
        "g_remark": "a dual in a variation of the final phase: after {line}: {moves} all win",
        "g_pass": "every Black defence in the final phase has exactly one winning reply",
        "white": "white",
        "black": "black",
    },
    "nl": {
        "not_examined": "niet onderzocht (alleen de winst werd gevraagd)",
        "a_pass": "wit wint (bewezen), sleutelzet {keys}",
        "a_fail": "wit kan de winst niet afdwingen: elke eerste zet is weerlegd",
        "a_undecided": "niet beslist (tijdslimiet): geen winnende sleutelzet bewezen; nog open: "
        "{keys}",
        "a_undecided_line": "niet beslist (tijdslimiet): geen winnende sleutelzet bewezen; nog "
        "open: {keys}; de zoektocht stopte in de variant {line}",
        "b1_white_pieces": "wit heeft {count} stukken; een partij begint met 20 per kleur",
        "b1_black_pieces": "zwart heeft {count} stukken; een partij begint met 20 per kleur",
        "b1_black_to_move": "zwart is aan zet: een probleem begint met wit aan zet",
        "b1_no_white": "wit heeft geen stukken",
        "b1_no_last_move": "zwart heeft geen reglementaire laatste zet naar deze stand (geen "
        "gewone zet of slag leidt hierheen vanuit een reglementaire stand met zwart aan zet)",
        "b1_undecided": "onbeslist: onder de eerste {tried} standen waaruit zwart gespeeld kan "
        "hebben is geen reglementaire laatste zet gevonden, en niet alle zijn geprobeerd",
        "b1_pass": "aan de noodzakelijke voorwaarden is voldaan: {white} witte en {black} zwarte "
        "stukken ({captured_black} zwarte en {captured_white} witte geslagen), de laatste zet van "
        "zwart kan {last} zijn geweest; er is geen partij vanuit de beginstand samengesteld (niet "
        "bewezen bereikbaar)",
        "b2_fail": "wit heeft meer materiaal ({white_men} schijven, {white_kings} dammen tegen "
        "{black_men} schijven, {black_kings} dammen)",
        "b2_pass": "wit {white} stukken, zwart {black}",
        "b3_fail": "dammen op {squares}",
        "b3_pass": "geen dammen",
        "b4_fail": "er staat een zwart stuk en prise: wit kan meteen slaan ({captures})",
        "b4_pass": "wit kan in de beginstand niet slaan",
        "not_proved": "de winst is niet bewezen",
        "c_cook": "nevenoplossing: meer dan één winnende sleutelzet: {keys}; een winnende "
        "voortzetting: {lines}",
        "c_cook_combination": "nevenoplossing: meer dan één winnende sleutelzet: {keys}; een "
        "winnende voortzetting: {lines} (de nevenoplossing is zelf een combinatie: de jury kan "
        "haar toelaten, art. 2C)",
        "c_cook_line": "nevenoplossing in de combinatie: {duals}",
        "c_cook_line.duals": "na {0}: {1} winnen alle",
        "c_cook_line_more": "nevenoplossing in de combinatie: {duals} (+{count} meer)",
        "c_cook_line_more.duals": "na {0}: {1} winnen alle",
        "c_remark": "dualiteit in een variant of na een gedwongen zwarte slagkeuze: {duals}",
        "c_remark.duals": "na {0}: {1} winnen alle",
        "c_remark_more": "dualiteit in een variant of na een gedwongen zwarte slagkeuze: {duals} "
        "(+{count} meer)",
        "c_remark_more.duals": "na {0}: {1} winnen alle",
        "c_undecided": "niet beslist (tijdslimiet): {later} latere alternatieven niet beslist",
        "c_undecided_cut": "niet beslist (tijdslimiet): de oplossingsboom is niet tot het einde "
        "doorlopen ({later} latere alternatieven niet beslist)",
        "c_undecided_keys": "niet beslist (tijdslimiet): sleutelzetten niet weerlegd: {keys}; "
        "{later} latere alternatieven niet beslist",
        "c_pass": "één winnende sleutelzet en één winnende zet bij elke witte beurt van de "
        "oplossingsboom, tot het einde van het probleem ({count} standen; onschuldige "
        "alternatieven staan als informatie vermeld)",
        "d_needs_key": "vereist een reglementaire oplossing waarvan de sleutelzet wint",
        "d_fail": "overbodig: {men} (de oplossing werkt ook zonder, zonder nevenoplossing en met "
        "een reglementaire beginstand)",
        "d_fail.men": "{0} schijf op {1}",
        "d_undecided": "niet beslist (tijdslimiet) voor de schijven op {men}",
        "d_undecided.men": "{0} {1}",
        "d_pass": "elk van de {count} schijven is nodig: zonder die schijf faalt de oplossing",
        "no_solution": "geen bewezen oplossing om te onderzoeken",
        "e_fail": "verwisselbaar: {pairs} (beide volgordes winnen)",
        "e_fail.pairs": "{0} en {1}",
        "e_undecided": "niet beslist (tijdslimiet)",
        "e_pass": "geen twee witte zetten kunnen van plaats wisselen",
        "f_no_solution": "geen reglementaire oplossing om te onderzoeken",
        "f_white_wins": "de oplossing beëindigt de partij: wit wint (de tegenpartij kan niet "
        "meer zetten)",
        "f_black_wins": "de oplossing beëindigt de partij: zwart wint (de tegenpartij kan niet "
        "meer zetten)",
        "f_pass": "de oplossing eindigt in een eindspel dat bewezen gewonnen is voor wit",
        "f_fail": "de oplossing stopt in een stand die wit niet kan winnen: {fen}",
        "f_undecided": "niet beslist (tijdslimiet): de stand waar de oplossing stopt, is niet "
        "bewezen gewonnen",
        "g_fail": "de slotfase wordt niet op één manier gewonnen: na {line} winnen {moves} alle",
        "g_undecided": "niet beslist (tijdslimiet): de slotfase is niet volledig onderzocht",
        "g_remark": "een dualiteit in een variant van de slotfase: na {line} winnen {moves} alle",
        "g_pass": "op elke zwarte verdediging in de slotfase is er precies één winnend antwoord",
        "white": "witte",
        "black": "zwarte",
    },
    "fy": {
        "not_examined": "net ûndersocht (allinnich de winst waard frege)",
        "a_pass": "wyt wint (bewiisd), kaaizet {keys}",
        "a_fail": "wyt kin de winst net ôftwinge: elke earste set is wjerlein",
        "a_undecided": "net besletten (tiidslimyt): gjin winnende kaaizet bewiisd; noch iepen: "
        "{keys}",
        "a_undecided_line": "net besletten (tiidslimyt): gjin winnende kaaizet bewiisd; noch "
        "iepen: {keys}; it sykjen stoppe yn de fariant {line}",
        "b1_white_pieces": "wyt hat {count} stikken; in partij begjint mei 20 de kleur",
        "b1_black_pieces": "swart hat {count} stikken; in partij begjint mei 20 de kleur",
        "b1_black_to_move": "swart is oan set: in probleem begjint mei wyt oan set",
        "b1_no_white": "wyt hat gjin stikken",
        "b1_no_last_move": "swart hat gjin reglemintêre lêste set nei dizze stân (gjin gewoane "
        "set of slach liedt hjirhinne út in reglemintêre stân mei swart oan set)",
        "b1_undecided": "net besletten: ûnder de earste {tried} stannen dêr't swart út spile hawwe "
        "kin is gjin reglemintêre lêste set fûn, en net allegear binne besocht",
        "b1_pass": "oan de needsaaklike betingsten is foldien: {white} wite en {black} swarte "
        "stikken ({captured_black} swarte en {captured_white} wite slein), de lêste set fan swart "
        "kin {last} west ha; der is gjin partij út de begjinstân gearstald (net bewiisd "
        "berikber)",
        "b2_fail": "wyt hat mear materiaal ({white_men} skiven, {white_kings} dammen tsjin "
        "{black_men} skiven, {black_kings} dammen)",
        "b2_pass": "wyt {white} stikken, swart {black}",
        "b3_fail": "dammen op {squares}",
        "b3_pass": "gjin dammen",
        "b4_fail": "der stiet in swart stik en prise: wyt kin daliks slaan ({captures})",
        "b4_pass": "wyt kin yn de begjinstân net slaan",
        "not_proved": "de winst is net bewiisd",
        "c_cook": "byoplossing: mear as ien winnende kaaizet: {keys}; in winnende fuortsetting: "
        "{lines}",
        "c_cook_combination": "byoplossing: mear as ien winnende kaaizet: {keys}; in winnende "
        "fuortsetting: {lines} (de byoplossing is sels in kombinaasje: de sjuery kin har tastean, "
        "art. 2C)",
        "c_cook_line": "byoplossing yn de kombinaasje: {duals}",
        "c_cook_line.duals": "nei {0}: {1} winne allegear",
        "c_cook_line_more": "byoplossing yn de kombinaasje: {duals} (+{count} mear)",
        "c_cook_line_more.duals": "nei {0}: {1} winne allegear",
        "c_remark": "dualiteit yn in fariant of nei in twongen swarte slachkar: {duals}",
        "c_remark.duals": "nei {0}: {1} winne allegear",
        "c_remark_more": "dualiteit yn in fariant of nei in twongen swarte slachkar: {duals} "
        "(+{count} mear)",
        "c_remark_more.duals": "nei {0}: {1} winne allegear",
        "c_undecided": "net besletten (tiidslimyt): {later} lettere alternativen net besletten",
        "c_undecided_cut": "net besletten (tiidslimyt): de oplossingsbeam is net oant de ein "
        "trochrûn ({later} lettere alternativen net besletten)",
        "c_undecided_keys": "net besletten (tiidslimyt): kaaizetten net wjerlein: {keys}; "
        "{later} lettere alternativen net besletten",
        "c_pass": "ien winnende kaaizet en ien winnende set by elke wite beurt fan de "
        "oplossingsbeam, oant de ein fan it probleem ({count} stannen; ûnskuldige alternativen "
        "steane as ynformaasje neamd)",
        "d_needs_key": "freget in reglemintêre oplossing dêr't de kaaizet fan wint",
        "d_fail": "oerstallich: {men} (de oplossing wurket ek sûnder, sûnder byoplossing en mei in "
        "reglemintêre begjinstân)",
        "d_fail.men": "{0} skiif op {1}",
        "d_undecided": "net besletten (tiidslimyt) foar de skiven op {men}",
        "d_undecided.men": "{0} {1}",
        "d_pass": "elk fan de {count} skiven is nedich: sûnder dy skiif falt de oplossing troch",
        "no_solution": "gjin bewiisde oplossing om te ûndersykjen",
        "e_fail": "ferwikselber: {pairs} (beide folchoarders winne)",
        "e_fail.pairs": "{0} en {1}",
        "e_undecided": "net besletten (tiidslimyt)",
        "e_pass": "gjin twa wite setten kinne fan plak wikselje",
        "f_no_solution": "gjin reglemintêre oplossing om te ûndersykjen",
        "f_white_wins": "de oplossing makket de partij út: wyt wint (de tsjinpartij kin net "
        "mear sette)",
        "f_black_wins": "de oplossing makket de partij út: swart wint (de tsjinpartij kin net "
        "mear sette)",
        "f_pass": "de oplossing einiget yn in einspul dat bewiisd wûn is foar wyt",
        "f_fail": "de oplossing hâldt op yn in stân dy't wyt net winne kin: {fen}",
        "f_undecided": "net besletten (tiidslimyt): de stân dêr't de oplossing ophâldt, is net "
        "bewiisd wûn",
        "g_fail": "de slotfaze wurdt net op ien manier wûn: nei {line} winne {moves} allegear",
        "g_undecided": "net besletten (tiidslimyt): de slotfaze is net folslein ûndersocht",
        "g_remark": "in dualiteit yn in fariant fan de slotfaze: nei {line} winne {moves} allegear",
        "g_pass": "op elke swarte ferdigening yn de slotfaze is der krekt ien winnend antwurd",
        "white": "wite",
        "black": "swarte",
    },
}


def render(message: str, args: dict[str, Argument], lang: str = "en") -> str | None:
    """The text of ``message`` in ``lang``; None when that language lacks the message."""
    table = MESSAGES.get(lang, {})
    template = table.get(message)
    if template is None:
        return None
    values: dict[str, str | int] = {}
    for name, value in args.items():
        if isinstance(value, list):
            item = table.get(f"{message}.{name}")
            if item is None:
                return None
            values[name] = "; ".join(
                item.format(*(table.get(str(v), v) if v in ("white", "black") else v for v in x))
                for x in value
            )
        else:
            values[name] = value
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return None
