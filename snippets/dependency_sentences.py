"""Hand-labelled sentences for snippets/dependency_heads.py (a small replication of
Clark et al. 2019, "What Does BERT Look At?", section 4.2). Written and labelled by hand
for this site; "the black cat drank the milk", the chapter's own sentence, is left out.

One sentence a line, five columns separated by ' | ':
  text   lower case, words separated by single spaces, each word one token of MiniLM
  det    determiner > its noun          (dependent > head)
  dobj   direct object > its verb       (dependent > head)
  poss   possessive pronoun > its noun  (my, your, his, her, our, their: Stanford
         dependencies, which Clark et al. used, call these poss, not det)
  note   why a label is what it is, where that is not obvious
A label is word(i)>word(j): i and j are 0-based word indices ([CLS] not counted), and
each word must be the sentence's word at that index. Pairs are separated by spaces;
"-" means none. Labels follow Stanford dependencies (de Marneffe and Manning 2008):
an indirect object is iobj and a second conjoined object is conj, so neither is dobj.

The table is data in a Python string so that it travels with the module: a
notebook saves it next to itself, and /snippets/ serves it, like any module.
"""

TABLE = """\
text | det | dobj | poss | note
the old man ate a red apple | the(0)>man(2) a(4)>apple(6) | apple(6)>ate(3) | -
a dog chased the small black cat | a(0)>dog(1) the(3)>cat(6) | cat(6)>chased(2) | -
she read every book in the library | every(2)>book(3) the(5)>library(6) | book(3)>read(1) | -
this girl wrote a long letter to the teacher | this(0)>girl(1) a(3)>letter(5) the(7)>teacher(8) | letter(5)>wrote(2) | -
the children played a game | the(0)>children(1) a(3)>game(4) | game(4)>played(2) | -
the farmer sold the big brown horse | the(0)>farmer(1) the(3)>horse(6) | horse(6)>sold(2) | -
every student passed the hard test | every(0)>student(1) the(3)>test(5) | test(5)>passed(2) | -
he opened the door and she closed the window | the(2)>door(3) the(7)>window(8) | door(3)>opened(1) window(8)>closed(6) | - | two clauses
the teacher gave the boy a good book | the(0)>teacher(1) the(3)>boy(4) a(5)>book(7) | book(7)>gave(2) | - | boy: indirect object (iobj), not dobj
we saw a very tall tree yesterday | a(2)>tree(5) | tree(5)>saw(1) | - | yesterday: temporal modifier
the cook made this soup | the(0)>cook(1) this(3)>soup(4) | soup(4)>made(2) | - | cook: a noun here
they found the lost keys under a chair | the(2)>keys(4) a(6)>chair(7) | keys(4)>found(1) | - | lost: adjective (participle)
an angry bear attacked the small boat | an(0)>bear(2) the(4)>boat(6) | boat(6)>attacked(3) | -
my brother bought an old car | an(3)>car(5) | car(5)>bought(2) | my(0)>brother(1)
these students wrote their names on the board | these(0)>students(1) the(6)>board(7) | names(4)>wrote(2) | their(3)>names(4)
those birds built a nest in that tree | those(0)>birds(1) a(3)>nest(4) that(6)>tree(7) | nest(4)>built(2) | -
each player kicked the ball | each(0)>player(1) the(3)>ball(4) | ball(4)>kicked(2) | -
some people ate the cold pizza | some(0)>people(1) the(3)>pizza(5) | pizza(5)>ate(2) | -
her father fixed the broken chair | the(3)>chair(5) | chair(5)>fixed(2) | her(0)>father(1)
his mother sent him a long letter | a(4)>letter(6) | letter(6)>sent(2) | his(0)>mother(1) | him: indirect object
the woman gave her daughter a new bike | the(0)>woman(1) a(5)>bike(7) | bike(7)>gave(2) | her(3)>daughter(4) | daughter: indirect object
she picked up the heavy box | the(3)>box(5) | box(5)>picked(1) | - | up: particle of picked
the boy kicked the ball and the dog chased the stick | the(0)>boy(1) the(3)>ball(4) the(6)>dog(7) the(9)>stick(10) | ball(4)>kicked(2) stick(10)>chased(8) | - | two clauses
they want to buy a bigger house | a(4)>house(6) | house(6)>buy(3) | - | house: object of buy, not of want
i know the woman who owns this shop | the(2)>woman(3) this(6)>shop(7) | woman(3)>know(1) shop(7)>owns(5) | - | relative clause; who: its subject
she said that the man stole a car | the(3)>man(4) a(6)>car(7) | car(7)>stole(5) | - | that: a complementizer, not a determiner
we cleaned the kitchen after the party | the(2)>kitchen(3) the(5)>party(6) | kitchen(3)>cleaned(1) | -
the police caught the thief near the station | the(0)>police(1) the(3)>thief(4) the(6)>station(7) | thief(4)>caught(2) | -
every child needs a warm coat in winter | every(0)>child(1) a(3)>coat(5) | coat(5)>needs(2) | -
our friends painted the old wooden fence | the(3)>fence(6) | fence(6)>painted(2) | our(0)>friends(1)
the bus driver opened the front door | the(0)>driver(2) the(4)>door(6) | door(6)>opened(3) | - | bus, front: noun modifiers; the nouns are driver and door
a young girl carried the water to the house | a(0)>girl(2) the(4)>water(5) the(7)>house(8) | water(5)>carried(3) | -
this machine makes the best coffee | this(0)>machine(1) the(3)>coffee(5) | coffee(5)>makes(2) | -
that man stole my wallet on the train | that(0)>man(1) the(6)>train(7) | wallet(4)>stole(2) | my(3)>wallet(4) | that: a determiner here
the cat chased a mouse under the table | the(0)>cat(1) a(3)>mouse(4) the(6)>table(7) | mouse(4)>chased(2) | -
john wrote a song for his wife | a(2)>song(3) | song(3)>wrote(1) | his(5)>wife(6)
the students asked the teacher a difficult question | the(0)>students(1) the(3)>teacher(4) a(5)>question(7) | question(7)>asked(2) | - | teacher: indirect object
my sister reads a book every night | a(3)>book(4) every(5)>night(6) | book(4)>reads(2) | my(0)>sister(1) | every night: temporal modifier
the baby dropped the spoon and the cup | the(0)>baby(1) the(3)>spoon(4) the(6)>cup(7) | spoon(4)>dropped(2) | - | cup: conjunct of spoon (conj), not labelled dobj, as in Stanford dependencies
an old woman sold these flowers at the market | an(0)>woman(2) these(4)>flowers(5) the(7)>market(8) | flowers(5)>sold(3) | -
the company hired a new manager last year | the(0)>company(1) a(3)>manager(5) | manager(5)>hired(2) | - | last year: temporal modifier, no determiner
he closed his eyes | - | eyes(3)>closed(1) | his(2)>eyes(3)
the waiter brought us the wrong soup | the(0)>waiter(1) the(4)>soup(6) | soup(6)>brought(2) | - | us: indirect object
some students answered every question on the test | some(0)>students(1) every(3)>question(4) the(6)>test(7) | question(4)>answered(2) | -
a small boy found a coin in the sand | a(0)>boy(2) a(4)>coin(5) the(7)>sand(8) | coin(5)>found(3) | -
the doctor examined the sick child carefully | the(0)>doctor(1) the(3)>child(5) | child(5)>examined(2) | -
they watched a film and we played a game | a(2)>film(3) a(7)>game(8) | film(3)>watched(1) game(8)>played(6) | - | two clauses
each morning she drinks a cup of tea | each(0)>morning(1) a(4)>cup(5) | cup(5)>drinks(3) | - | each morning: temporal modifier; tea: object of the preposition of
the chef cut the fresh bread with a sharp knife | the(0)>chef(1) the(3)>bread(5) a(7)>knife(9) | bread(5)>cut(2) | -
your dog ate my sandwich | - | sandwich(4)>ate(2) | your(0)>dog(1) my(3)>sandwich(4)
the soldiers crossed the river at night | the(0)>soldiers(1) the(3)>river(4) | river(4)>crossed(2) | -
a tall man opened an umbrella | a(0)>man(2) an(4)>umbrella(5) | umbrella(5)>opened(3) | -
the girls sang a song while the boys played the drums | the(0)>girls(1) a(3)>song(4) the(6)>boys(7) the(9)>drums(10) | song(4)>sang(2) drums(10)>played(8) | - | two clauses
that old house needs a new roof | that(0)>house(2) a(4)>roof(6) | roof(6)>needs(3) | -
the farmers planted corn in the spring | the(0)>farmers(1) the(5)>spring(6) | corn(3)>planted(2) | - | corn: an object without a determiner
she wore a long red dress to the party | a(2)>dress(5) the(7)>party(8) | dress(5)>wore(1) | -
these shoes hurt my feet | these(0)>shoes(1) | feet(4)>hurt(2) | my(3)>feet(4)
the old king built a castle on the hill | the(0)>king(2) a(4)>castle(5) the(7)>hill(8) | castle(5)>built(3) | -
nobody saw the accident | the(2)>accident(3) | accident(3)>saw(1) | -
the nurse gave each patient a glass of water | the(0)>nurse(1) each(3)>patient(4) a(5)>glass(6) | glass(6)>gave(2) | - | patient: indirect object
a strong wind broke the branches of the tree | a(0)>wind(2) the(4)>branches(5) the(7)>tree(8) | branches(5)>broke(3) | -
their son plays the piano | the(3)>piano(4) | piano(4)>plays(2) | their(0)>son(1)
the manager read every email carefully | the(0)>manager(1) every(3)>email(4) | email(4)>read(2) | -
she has finished her homework | - | homework(4)>finished(2) | her(3)>homework(4) | has: auxiliary
we will visit the museum tomorrow | the(3)>museum(4) | museum(4)>visit(2) | - | will: auxiliary
the little dog followed the children to school | the(0)>dog(2) the(4)>children(5) | children(5)>followed(3) | -
an engineer designed this bridge | an(0)>engineer(1) this(3)>bridge(4) | bridge(4)>designed(2) | -
the teacher showed the class a map of the world | the(0)>teacher(1) the(3)>class(4) a(5)>map(6) the(8)>world(9) | map(6)>showed(2) | - | class: indirect object
those men carried the heavy stones up the hill | those(0)>men(1) the(3)>stones(5) the(7)>hill(8) | stones(5)>carried(2) | - | up: a preposition here (up the hill)
i made a cake for my mother | a(2)>cake(3) | cake(3)>made(1) | my(5)>mother(6)
the girl with the red hat lost her ticket | the(0)>girl(1) the(3)>hat(5) | ticket(8)>lost(6) | her(7)>ticket(8)
some birds eat the seeds of this plant | some(0)>birds(1) the(3)>seeds(4) this(6)>plant(7) | seeds(4)>eat(2) | -
he turned off the light and left the room | the(3)>light(4) the(7)>room(8) | light(4)>turned(1) room(8)>left(6) | - | off: particle of turned; left: a verb here, conjoined with turned
the president signed the new law yesterday | the(0)>president(1) the(3)>law(5) | law(5)>signed(2) | -
a boy in a blue shirt threw the ball | a(0)>boy(1) a(3)>shirt(5) the(7)>ball(8) | ball(8)>threw(6) | -
every worker received a small bonus | every(0)>worker(1) a(3)>bonus(5) | bonus(5)>received(2) | -
these children love their grandmother | these(0)>children(1) | grandmother(4)>love(2) | their(3)>grandmother(4)
she told her friend a funny story | a(4)>story(6) | story(6)>told(1) | her(2)>friend(3) | friend: indirect object
the storm destroyed an entire village | the(0)>storm(1) an(3)>village(5) | village(5)>destroyed(2) | -
no student answered the last question | no(0)>student(1) the(3)>question(5) | question(5)>answered(2) | -
she did not eat any meat | any(4)>meat(5) | meat(5)>eat(3) | - | did: auxiliary; not: negation
he ordered another drink | another(2)>drink(3) | drink(3)>ordered(1) | -
"""
