"""The hand-written article texts of the structures set (see README.md): one entry per page,
``(name, structure, title, paragraphs)``. The paragraphs are the page's ground truth; the
page around them is built by ``build.py`` from the structure's template."""

ARTICLES = [
    # ------------------------------------------------------------------ table rows / cells
    ("table-rows-1", "table_rows", "Restoring the old mill wheel", [
        "After three winters of standing still, the wheel of the old corn mill turned again on Saturday morning. Volunteers from the heritage society spent most of the summer replacing the oak paddles, which had rotted where the water struck them hardest.",
        "The new paddles were cut from a single tree felled on the estate in 2019 and left to season in the barn. Each one was shaped by hand, because the original drawings were lost when the mill office flooded in the sixties.",
        "The society now hopes to grind flour on open days from next spring. Before that can happen, the millstones need to be dressed, a slow job that only two people in the county still know how to do properly.",
        "Visitors are welcome on the first Sunday of every month. The path from the car park is steep and can be muddy after rain, so sensible shoes are recommended.",
    ]),
    ("table-rows-2", "table_rows", "Minutes of the allotment committee, March meeting", [
        "Present were the chair, the treasurer, the secretary and seven plot holders. Apologies were received from the water officer, who is recovering from an operation and sends his thanks for the cards.",
        "The treasurer reported that rents for the coming year have been paid on all but four plots. Reminder letters will go out this week, and plots with rent still unpaid at the end of April will be offered to the waiting list.",
        "A long discussion followed about the state of the main path. It was agreed to spend up to four hundred pounds on bark chippings and to hold a working party on the second Saturday of April to spread them.",
        "The meeting closed at half past nine. The next meeting will be held in the church hall on the fourteenth of May.",
    ]),
    ("table-rows-3", "table_cells", "Field notes: a week of birds on the estuary", [
        "Monday began grey and still, with a large raft of wigeon on the far side of the channel. A single spotted redshank fed among the common redshanks at the outflow, its darker legs easy to miss in the poor light.",
        "By Wednesday the wind had turned to the north and the numbers of knot rose sharply. At high tide several thousand packed onto the shingle spit, lifting and settling again every time a gull flew over.",
        "Thursday brought the highlight of the week: a short-eared owl quartering the saltmarsh in the late afternoon. It hunted for nearly twenty minutes before drifting inland over the sea wall.",
        "The rest of the week was quieter. Counts of curlew and grey plover were close to the ten-year average, and the brent geese had mostly moved on to the fields behind the village.",
    ]),
    ("table-rows-4", "table_cells", "How we built a kiln from recycled bricks", [
        "The kiln stands behind the workshop on a base of old paving slabs. We collected the bricks over two years from a demolished chimney, a garden wall and a neighbour who was clearing out his shed.",
        "Firebricks line the chamber, while the outer layer is ordinary house brick bedded in a mix of clay and sand. We avoided cement because it cracks and crumbles once it has been heated and cooled a few dozen times.",
        "The first firing took eleven hours and reached about nine hundred degrees. Most of the pots survived, although two bowls near the burner port slumped and one lid fused to its jar.",
        "If you try this yourself, build the arch over a wooden former and leave it in place until the mortar has dried for a week. Our first attempt collapsed because we were impatient.",
    ]),
    ("table-rows-5", "table_rows", "Parish history: the school on Chapel Lane", [
        "The school on Chapel Lane opened in 1874 with one teacher and forty-two pupils. Children walked in from the outlying farms, and in winter many of them stayed at home for weeks at a time when the lanes were flooded.",
        "The log book kept by the head teachers survives in the county record office. It records outbreaks of measles, a visit from the inspector who found the arithmetic poor, and the day the stove set fire to a cupboard of slates.",
        "A second classroom was added in 1911, paid for by a bequest from the family at the manor. The building served the village until 1968, when the pupils moved to the new primary school beside the main road.",
        "Today the old schoolroom is a private house, but the bell still hangs above the porch. The current owners ring it once a year on the anniversary of the opening.",
    ]),
    ("table-split-1", "table_split", "Annual report of the footpaths group", [
        "This year the group's volunteers spent more than six hundred hours on the parish footpaths. Most of that time went on clearing overgrown sections, but we also replaced eleven stiles with gates, which walkers with dogs and older members have welcomed.",
        "The worst problem remains the path across the water meadows, which floods every winter and turns to deep mud for weeks afterwards. We have asked the county council to consider a raised boardwalk, and a surveyor visited in October.",
        "Our thanks go to the farmers who allowed us onto their land with machinery, and to the brewery for the loan of a trailer. Without them the new bridge over the stream near the mill could not have been built.",
        "Next year we hope to waymark the circular route around the village and publish a leaflet. New volunteers are always welcome, and no experience is needed.",
    ]),
    ("table-split-2", "table_split", "How the church clock was put right", [
        "For almost a year the church clock had been running slow, losing up to ten minutes a week and striking at odd moments in the night. The parish council finally called in a clockmaker from the city in the spring.",
        "He found that the pendulum rod had warped, probably because rain had been getting in through a broken louvre in the tower. The pivots of the going train were also badly worn and needed new bushes.",
        "The repairs took three weeks. The clockmaker made a new rod from seasoned pine, which changes its length less with the temperature than the old steel one, and the louvre was mended by a local builder.",
        "The clock has now kept time to within a few seconds for two months, and the night-time striking has stopped, to the relief of the houses nearest the churchyard.",
    ]),
    ("table-split-3", "table_split", "Report from the cider making weekend", [
        "Around forty people came to the orchard over the weekend to help press this year's apples. The crop was smaller than last year's after a late frost in May, but the fruit was sweet and clean.",
        "The old screw press was brought out of the barn and cleaned on Friday evening. On Saturday the children took turns washing apples in tin baths while the adults fed the scratter and built the cheeses of pulp and straw.",
        "By Sunday afternoon we had filled nine barrels. The juice will ferment in the cellar of the farmhouse over the winter and should be ready to drink at the wassail in January.",
        "Thank you to everyone who came, and especially to those who stayed to scrub the press before it went back into the barn.",
    ]),
    # ------------------------------------------------------------------ <br> text in table cells
    ("table-br-1", "table_br", "Walking the ridge path in winter", [
        "We set out from the village just after eight, with frost still on the stiles and the sun only beginning to reach the valley floor. The climb to the ridge takes about an hour at a steady pace.",
        "On top the wind was sharp but the views were clear in every direction. To the west we could see the line of the estuary, and to the north the snow on the higher hills looked close enough to touch.",
        "The path along the ridge is well marked, though it becomes boggy near the second cairn. We kept to the left of the fence there and stayed dry, which was not the case on our last visit.",
        "We came down through the beech woods and were back at the pub by two. The whole round is a little over eleven miles and is best done with a map, as several paths branch off without signs.",
    ]),
    ("table-br-2", "table_br", "Notes on repairing a sash window", [
        "The window in the back bedroom had not opened for years. When we finally freed it, both sash cords snapped at once and the lower sash dropped into the frame with a crash that shook the whole wall.",
        "Replacing the cords means removing the staff beads, lifting out the sashes and opening the pockets to reach the weights. The weights in our window were cast iron and weighed a little under four kilograms each.",
        "New cord is cheap, but it must be waxed cotton rather than nylon, which stretches and slips. Tie the cord to the weight with a figure of eight and fix the other end into the groove of the sash with three clout nails.",
        "With the beads back in place and a little candle wax rubbed on the runners, the window now slides up and down with one finger. The whole job took an afternoon.",
    ]),
    ("table-br-3", "table_br", "Club news: results of the autumn chess congress", [
        "The autumn congress drew sixty-four players to the community centre, the largest entry since the tournament began. Play ran over two days with five rounds in the open section and six in the minor.",
        "The open was won outright by a junior from the university club, who finished on four and a half points after a nervous draw in the final round. Three players shared second place half a point behind.",
        "In the minor section our own club secretary took first place with five wins and a single loss. She said afterwards that she had been lucky in the third round, when her opponent overlooked a simple mate in two.",
        "Thanks go to the arbiters, to the volunteers who ran the kitchen, and to everyone who stayed behind to stack the chairs.",
    ]),
    ("table-br-4", "table_br", "A recipe for plain oatcakes", [
        "Oatcakes need very few ingredients: medium oatmeal, a pinch of salt, a little baking soda, melted butter or dripping, and enough hot water to bring everything together into a stiff dough.",
        "Mix the dry ingredients in a bowl, pour in the fat and then the water a spoonful at a time. Work quickly, because the dough becomes crumbly as it cools and is then very hard to roll.",
        "Roll it out on a board dusted with oatmeal until it is about as thick as a coin. Cut into rounds or triangles and bake in a moderate oven for around twenty minutes, until the edges just begin to colour.",
        "Let them cool on a rack and keep them in a tin. They are best with a sharp cheese, but they go well with butter and honey too.",
    ]),
    ("table-br-5", "table_br", "Software notice: version 3.2 of the survey tool", [
        "Version 3.2 of the survey tool is now available for download. This release fixes the problem where long free-text answers were cut off at two hundred and fifty-five characters when exported to a spreadsheet.",
        "The export dialog also gains an option to write dates in the international format, which several users have asked for. The old format remains the default so that existing macros keep working.",
        "Users of the network edition should update the server before the clients. Clients of version 3.1 can still connect to a 3.2 server, but not the other way round.",
        "As always, please back up your survey files before installing. Questions can be sent to the support address listed on the contact page.",
    ]),
    # ------------------------------------------------------------------ <br> / <div> text without <p>
    ("br-text-1", "br_text", "Letter from the lighthouse", [
        "The supply boat was late again this week, held in the harbour for three days by a gale that did not want to end. We ran low on fresh milk but had plenty of tinned food and more than enough coal.",
        "The lamp itself has given no trouble since the new bulbs were fitted. The clockwork that turns the lens still needs winding every four hours, which keeps at least one of us awake through the night.",
        "On calm evenings seals come up onto the rocks below the tower and call to each other. My daughter, who is visiting for the summer, has given every one of them a name.",
        "We expect the relief crew at the end of the month, weather permitting. I will write again when I am back on the mainland.",
    ]),
    ("br-text-2", "br_text", "Why our bus timetable is changing", [
        "From the first of next month the number seven bus will run every twenty minutes instead of every fifteen during the middle of the day. Early morning and evening services are not affected.",
        "The change follows a survey of passenger numbers last autumn, which showed that many midday buses carried fewer than five people. The drivers and vehicles saved will be used to add a late service on Friday and Saturday nights.",
        "We know that some passengers, especially those travelling to the hospital, will find the longer gap inconvenient. We will review the timetable again after six months and would like to hear from anyone affected.",
        "Printed timetables will be available at the library and the bus station from next week.",
    ]),
    ("div-text-1", "div_text", "The village show returns after two years", [
        "The village show returned to the recreation ground on Saturday after two years away, and the weather held until the very last class had been judged. Organisers estimated that well over a thousand people came through the gate.",
        "The vegetable tent was as competitive as ever. The prize for the heaviest marrow went to a grower from the next parish, whose entry tipped the scales at just under twenty kilograms.",
        "In the baking classes the judges singled out a lemon drizzle cake that they described as close to perfect. The children's classes drew a record number of entries, including a remarkable model of the church made from egg boxes.",
        "The committee thanked the many volunteers who set up the tents on Friday evening and took them down again before dark on Saturday.",
    ]),
    ("div-text-2", "div_text", "Understanding your water meter", [
        "Your water meter is usually found in a small chamber under a metal or plastic cover near the boundary of your property. Some newer homes have the meter inside, often under the kitchen sink.",
        "The black numbers on the dial show cubic metres, and these are the figures used for your bill. The red numbers show smaller amounts and can be ignored when you send us a reading.",
        "To check for a leak, turn off every tap in the house and make a note of the reading. Leave everything off for an hour and read the meter again. If the number has moved, water is escaping somewhere.",
        "If you think you have a leak on your side of the meter, contact a plumber. Leaks on our side are our responsibility and will be repaired free of charge.",
    ]),
    ("div-text-3", "div_text", "Learning to sail at forty", [
        "I had never set foot on a sailing boat until last spring, when a friend persuaded me to sign up for a beginners' course at the reservoir club. I was easily the oldest person in the group by twenty years.",
        "The first lesson was spent almost entirely on land, rigging the dinghy and learning the names of ropes that I promptly forgot. On the water the boom swung across and caught me on the shoulder within five minutes.",
        "By the end of the course I could tack and gybe without capsizing, most of the time. The instructor said my steering was better than my knots, which I chose to take as a compliment.",
        "I now sail most weekends from April to October. It is the most absorbing thing I have done in years, and I would recommend it to anyone who thinks they have left it too late.",
    ]),
    # ------------------------------------------------------------------ broken markup
    ("broken-title-1", "unclosed_title", "Repair cafe helps keep toasters out of landfill", [
        "The repair cafe in the old library has fixed more than three hundred items since it opened eighteen months ago. Lamps, toasters and vacuum cleaners make up the bulk of the work, but volunteers have also mended clocks, bicycles and a child's rocking horse.",
        "Everything is repaired for free, although visitors are asked to pay for any spare parts. The organisers say the point is not only to save money but to show people that broken things can often be brought back to life.",
        "The cafe opens on the last Saturday of every month from ten until one. Volunteers with an interest in electrics or sewing are especially welcome.",
    ]),
    ("broken-title-2", "unclosed_title", "Guide to composting kitchen waste", [
        "Almost half of what goes into a typical kitchen bin could be composted instead. Vegetable peelings, tea leaves, coffee grounds and egg shells all break down well, along with torn-up cardboard and paper.",
        "A good heap needs a mixture of green material, which is wet and rich in nitrogen, and brown material, which is dry and woody. Too much of the first turns the heap into a smelly sludge, while too much of the second means nothing happens for months.",
        "Turn the heap every few weeks to let air in, and keep it about as damp as a wrung-out sponge. After six months to a year you should have a dark, crumbly compost ready for the garden.",
        "Avoid adding meat, fish and cooked food, which attract rats, and never add the waste of cats or dogs.",
    ]),
    ("broken-html-1", "stray_html_end", "Cycling route opens along the old railway", [
        "A new cycling and walking route opened on Friday along the line of the railway that closed in 1964. The path runs for nine miles between the two market towns and is almost completely flat.",
        "Most of the route follows the original trackbed, but a short section near the river had to be rebuilt after the embankment collapsed in the floods of 2007. A new bridge carries the path over the main road.",
        "The council says it expects around a hundred thousand trips a year on the route once it is established. Benches and information boards about the history of the railway will be added over the summer.",
    ]),
    ("broken-html-2", "stray_html_end", "Support note: syncing calendars between devices", [
        "If events you add on your phone do not appear on your computer, first check that both devices are signed in to the same account. It is surprisingly common for a phone to be using an older account that was never removed.",
        "Next, open the calendar settings on each device and make sure that syncing is turned on for the calendar in question. Shared calendars are sometimes turned off by default when they are first added.",
        "If the problem continues, remove the account from the device that is out of date and add it again. This forces a full download of all events and usually clears any stuck changes.",
    ]),
    ("broken-head-1", "unclosed_head", "The secret life of hedgehogs", [
        "Hedgehogs travel surprisingly far for such small animals, covering a mile or more in a single night as they search for beetles, worms and caterpillars. Gardens connected by small gaps in fences make this much easier for them.",
        "From late autumn they look for a sheltered place to hibernate, often under a pile of leaves or logs. During this time their heart rate drops from around two hundred beats a minute to fewer than ten.",
        "If you want to help hedgehogs, leave a wild corner in your garden, avoid slug pellets, and check bonfires carefully before lighting them. A shallow dish of water is welcome in dry weather, but never give them milk.",
    ]),
    ("broken-head-2", "unclosed_head", "What to expect at your first blood donation", [
        "When you arrive you will be asked to read some information and answer a short set of questions about your health and recent travel. A nurse will then check your iron level with a small drop of blood from your finger.",
        "The donation itself takes around ten minutes. You will lie on a reclining chair while a needle is placed in a vein in your arm, and you will be asked to clench and relax your hand from time to time.",
        "Afterwards you should rest for a while and have a drink and a snack. Avoid heavy lifting and strenuous exercise for the rest of the day, and drink plenty of fluids.",
    ]),
    # ------------------------------------------------------------------ comments inside the article container
    ("comments-1", "comments_inside", "Five mistakes I made with my first sourdough", [
        "My first loaf was a brick. It was dense, pale and so sour that nobody in the house would eat more than one slice. Looking back, almost everything went wrong because I was in too much of a hurry.",
        "The biggest mistake was using a starter that was only a week old. It bubbled enthusiastically, but it did not have the strength to raise a whole loaf. Two more weeks of regular feeding made all the difference.",
        "I also followed the timings in the recipe instead of watching the dough. My kitchen is cold in winter, and the first rise needed nearly twice as long as the book suggested.",
        "Finally, I cut the loaf while it was still warm. The crumb was gummy and I assumed it was underbaked, when in fact it simply needed another hour to set.",
    ]),
    ("comments-2", "comments_inside", "Review: a week with a secondhand film camera", [
        "I bought the camera at a car boot sale for the price of a sandwich, with no idea whether it worked. The shutter fired, the light meter needle moved, and the seller assured me it had been his father's pride and joy.",
        "The first roll came back from the lab with twenty of thirty-six frames properly exposed. The others were dark at one edge, which turned out to be a sticky shutter curtain that loosened up after a few more rolls.",
        "What surprised me most was how differently I took pictures. With only thirty-six frames and no screen to check them, I waited for the right moment instead of firing away and sorting it out later.",
        "It will not replace my digital camera, but it has earned a place in my bag on weekends.",
    ]),
    ("comments-3", "comments_inside", "Planting a hedge that wildlife will love", [
        "A mixed native hedge is one of the best things you can plant for birds and insects. Hawthorn makes a good backbone, with blackthorn, hazel, field maple and dog rose added for variety and a longer season of flowers and fruit.",
        "Plant bare-root whips between November and March, when the plants are dormant. Set them in a double staggered row, about five plants to every metre, and keep the ground around them clear of grass for the first two years.",
        "Cut the hedge in late winter rather than in autumn, so that birds can feed on the berries through the coldest months. Trimming every other year, and only one side at a time, leaves plenty of flowers for insects.",
    ]),
    ("comments-4", "comments_inside", "My notes from the regional archives open day", [
        "The county archives opened their strongrooms to the public on Saturday for the first time in several years. Visitors were taken in small groups past shelves of parish registers, estate maps and court papers going back to the fourteenth century.",
        "The conservators showed how they repair torn documents with Japanese tissue and wheat starch paste. One of them was working on a tithe map so large that it had to be unrolled across three tables.",
        "In the search room, staff helped visitors find their own family names in the census returns. Several people left with copies of entries for their great-grandparents.",
        "The archives hope to make the open day a yearly event if volunteers can be found to help.",
    ]),
    ("comments-5", "comments_inside", "Fixing a dripping outdoor tap", [
        "A dripping outdoor tap wastes a surprising amount of water over a year, and in winter the drips can freeze and split the pipe. Fortunately the repair usually takes less than half an hour.",
        "Turn off the water supply to the tap, either at the isolating valve on the pipe inside the house or at the main stopcock. Open the tap fully to drain any water left in it.",
        "Unscrew the head of the tap with an adjustable spanner, take out the old washer and fit a new one of the same size. Put a little plumbers' grease on the thread before reassembling.",
        "Turn the water back on slowly and check for leaks. If it still drips, the seat of the tap may be worn and will need reseating or the whole tap replaced.",
    ]),
    # ------------------------------------------------------------------ short articles next to boilerplate boxes
    ("short-1", "short_boxes", "Road closed for resurfacing next week", [
        "The high street will be closed between the bridge and the war memorial from Monday to Wednesday next week while the road is resurfaced. Buses will be diverted along Station Road, and the Tuesday market will move to the school car park.",
    ]),
    ("short-2", "short_boxes", "Library extends its opening hours", [
        "From the start of next month the central library will stay open until eight in the evening on Tuesdays and Thursdays. The extra hours are being funded by the friends of the library group for a trial period of one year.",
    ]),
    ("short-3", "short_boxes", "Lost dog found safe on the moor", [
        "A spaniel missing for four days was found safe and well on the moor on Sunday morning by a pair of walkers. The dog had run off after a deer and is thought to have sheltered in an old sheepfold. Her owners said they were overjoyed.",
    ]),
    ("short-4", "short_boxes", "Choir seeks new tenors", [
        "The town choir is looking for tenors to join in time for the Christmas concert. No audition is needed, although being able to read music helps. Rehearsals are on Wednesday evenings in the Methodist church.",
        "Anyone interested can simply turn up at half past seven.",
    ]),
    ("short-5", "short_boxes", "Swimming pool reopens after repairs", [
        "The leisure centre pool reopened on Monday after six weeks of repairs to its roof. Swimming lessons will restart next week, and all members have been given an extra month of membership free of charge.",
    ]),
    # ------------------------------------------------------------------ tabbed panels
    ("tabs-1", "tabs", "Guide to the coastal path, stage four", [
        "Stage four runs for fourteen miles from the harbour to the lifeboat station on the point. It is one of the most demanding sections of the whole path, with several steep climbs in and out of wooded valleys.",
        "The path is well waymarked, but the cliff edge is unfenced in places and can be dangerous in strong winds. Allow at least seven hours and carry plenty of water, as there is nowhere to buy food after the first village.",
        "Buses run back to the harbour from the main road above the point every two hours in summer. In winter there is no Sunday service, so plan your walk for a weekday or arrange a lift.",
    ]),
    ("tabs-2", "tabs", "Choosing a first telescope", [
        "For most beginners a good pair of binoculars is a better first purchase than a cheap telescope. They are easy to use, show the Moon's craters and the moons of Jupiter, and are useful for birdwatching too.",
        "If you do want a telescope, a simple reflector on a Dobsonian mount gives the most light-gathering power for the money. Avoid models sold by their magnification, which is rarely usable at the figures printed on the box.",
        "Whatever you buy, spend your first nights learning the sky with a star chart. Knowing where to point the instrument matters far more than its size.",
    ]),
    ("tabs-3", "tabs", "Product notes: the folding workbench", [
        "The folding workbench sets up in under a minute and folds flat enough to hang on a garage wall. Its steel frame supports loads of up to one hundred and fifty kilograms when the legs are fully locked.",
        "The top is made of two bamboo boards that move apart to act as a vice. Pegs fitted into the holes in the boards hold awkward shapes such as pipes and round timber.",
        "Keep the hinges free of sawdust and put a drop of light oil on the locking pins from time to time. The bamboo boards can be sanded and oiled if they become stained.",
    ]),
    # ------------------------------------------------------------------ article rows of a layout table
    ("table-rowspan-1", "table_row_split", "The lifeboat station's busiest summer", [
        "The volunteer crew of the lifeboat station answered sixty-one calls between June and September, more than in any summer since the station opened. Most were to swimmers and paddleboarders carried out by the ebb tide beyond the headland.",
        "On the busiest weekend the boat launched five times in two days. The coxswain, a fisherman who has served on the crew for twenty-six years, said he could not remember the pagers going off so often.",
        "Two of the rescues were at night. In one, a yacht with a fouled propeller was towed in from eight miles out; in the other, a teenager stranded on a ledge below the cliffs was lifted off by the inshore boat.",
        "The station is asking visitors to check the tide times before they go into the water and to carry a phone in a waterproof pouch. Many of this year's calls came from people who had not realised how fast the tide turns in the bay.",
        "Three new volunteers finished their training in August, and the station is now looking for shore crew to help with launching. No sailing experience is needed, only a willingness to turn out at short notice in any weather.",
    ]),
    ("table-rowspan-2", "table_row_split", "A short history of the market cross", [
        "The market cross stands where the two main streets of the town meet. It was put up in the fifteenth century, when the town was granted the right to hold a weekly market and an annual fair on the feast of its patron saint.",
        "The cross was damaged during the civil war, when soldiers quartered in the town used its steps as a mounting block and broke off the carved head. For almost two hundred years only the shaft remained.",
        "In 1862 a new head was carved by a mason from the cathedral works, copied from a drawing of a similar cross in the next county. The stone came from the same quarry as the original, which had reopened for the building of the railway viaduct.",
        "The market itself has moved several times since then. Today the stalls are set out in the square behind the cross every Thursday, and the annual fair has become a summer festival with music, dancing and a procession.",
        "Lichen and traffic fumes have blackened the stone, and the town council has applied for a grant to have it cleaned by specialists. Until that work is done, visitors are asked not to climb the steps.",
    ]),
    ("table-rowspan-3", "table_row_split", "Beekeeping notes for October", [
        "October is the month to make sure every colony has enough food for the winter. Heft each hive from behind: a hive that lifts easily needs feeding now, while the bees can still take down syrup and store it.",
        "Fit mouse guards before the first hard frosts. Mice look for warm, dry places as the nights get colder, and a hive full of comb and honey is an easy home if the entrance is left open.",
        "Check that the roofs are weatherproof and that the hives lean slightly forward, so that rain runs out of the entrance rather than pooling on the floor. Damp kills more colonies in winter than cold does.",
        "Varroa treatment should be finished by now in most areas. If your mite counts are still high, speak to the local bee inspector before using anything that is not approved for use at this time of year.",
        "Finally, clean and store the supers you have taken off. Wax moth larvae will ruin stored comb within weeks if it is left somewhere warm, so keep it cold, dry and sealed.",
    ]),
    # ------------------------------------------------------------------ short article beside teaser cards
    ("teasers-1", "teaser_run", "Library opening hours change from Monday", [
        "From Monday the library will open at ten instead of nine on weekdays, and stay open until seven on Thursdays. The change follows a survey of readers last autumn.",
    ]),
    ("teasers-2", "teaser_run", "Road closed for bridge repairs", [
        "The lane over the canal bridge will be closed to traffic for three weeks from the first of June while the parapet is rebuilt.",
        "A signed diversion will run through the village centre. Pedestrians can still cross on a temporary walkway.",
    ]),
    ("teasers-3", "teaser_run", "Lost dog found safe after two nights on the moor", [
        "A spaniel that went missing during a walk on Sunday was found on Tuesday morning, tired but unhurt, by a shepherd checking his flock near the reservoir. Her owners thanked everyone who helped to search.",
    ]),
    # ------------------------------------------------------------------ article in a column of teaser and link lists
    ("column-lists-1", "column_lists", "New benches for the riverside walk", [
        "Six new benches have been placed along the riverside walk between the weir and the old ferry steps. They were paid for by families who wanted to remember someone who loved the river.",
        "Each bench carries a small brass plate. More places are available, and the town council says it will consider requests for the stretch beyond the boathouse next year.",
    ]),
    ("column-lists-2", "column_lists", "Choir celebrates fifty years of singing", [
        "The village choir marked its fiftieth anniversary with a concert in the parish church on Saturday evening. Two of the founding members, both now in their eighties, sang in the front row.",
        "The programme mixed the pieces the choir sang at its first concert with new arrangements written for the occasion by its musical director.",
    ]),
    # ------------------------------------------------------------------ sidebar-, header- and caption-classed boxes inside the article
    ("inner-boxes-1", "inner_boxes", "Restoring a dry stone wall", [
        "The wall along the top field had been falling down for years, a few stones at a time, until a whole section collapsed into the lane after the winter storms. We decided to rebuild it ourselves rather than replace it with a fence.",
        "The first job was to take the fallen section apart completely and sort the stones by size. The big foundation stones go at the bottom, the through stones across the middle, and the smallest pieces are used as hearting to fill the gaps inside.",
        "Building the wall back up took four weekends. Each course has to lean slightly inward, following a wooden frame set up at each end with a string line between them, so that the finished wall is narrower at the top than at the base.",
        "The last step was to set the coping stones on edge along the top. They lock the wall together and shed the rain, and they are the part that walkers notice first.",
    ]),
    ("inner-boxes-2", "inner_boxes", "A winter count of the village hedgehogs", [
        "Over the winter a group of neighbours has been counting the hedgehogs that visit their gardens. Each household put out a feeding station with a shallow tray of water and kept a note of every animal seen after dark.",
        "The count found at least eleven different hedgehogs, told apart by the pattern of their spines in photographs taken by trail cameras. Several of them travelled between gardens more than half a mile apart in a single night.",
        "To make that journey possible, residents have cut small holes at the base of their fences. A hole the size of a compact disc is enough for a hedgehog and too small for most pets.",
    ]),
    ("inner-boxes-3", "inner_boxes", "Learning to sharpen a hand saw", [
        "An old hand saw that cuts badly is rarely worn out. More often the teeth have simply lost their points, or the set that bends them alternately to each side has been worn away by years of use.",
        "To sharpen it, clamp the blade between two strips of wood in a vice, with the teeth just showing. File every other tooth from one side of the saw, then turn it round and file the rest from the other side, using the same number of strokes on each tooth.",
        "Once the teeth are sharp, check the set by sighting along the blade. If the saw binds in the cut, the teeth need a little more set, which is done with a simple plier-like tool.",
    ]),
    # ------------------------------------------------------------------ blocks after the article's end
    ("after-end-1", "after_end", "The orchard gets a new hedge", [
        "Volunteers planted a new hedge along the north side of the community orchard over two frosty weekends in January. Nearly four hundred young plants went in, mostly hawthorn with hazel, field maple and dog rose mixed through them.",
        "The hedge will shelter the apple trees from the wind and give nesting birds somewhere to live. It will be cut by hand every other winter, and laid in the traditional way once it is tall enough.",
        "Spare plants were given away to anyone who wanted them for their own gardens, and the last few went to the primary school.",
    ]),
    ("after-end-2", "after_end", "Why the bus timetable changed", [
        "Passengers on the route between the market town and the coast have noticed that the buses now leave ten minutes later in the morning. The operator says the change was made so that the first bus meets the early train at the junction.",
        "The evening service has also been cut back by one journey. Very few people used the last bus, and the driver hours saved have been used to add an extra bus on Saturday afternoons, when demand is highest.",
        "The operator will review the timetable again in the autumn and welcomes comments from passengers.",
    ]),
    ("after-end-3", "after_end", "Clearing the pond in the nature reserve", [
        "The pond in the nature reserve had almost disappeared under reeds and fallen leaves. Over three days in October a team of volunteers waded in and cleared about half of the reeds, leaving the rest for wildlife.",
        "The work is done in autumn because few creatures are breeding then. Everything removed was left on the bank for a couple of days so that any animals caught up in it could crawl back into the water.",
        "Next spring the reserve warden will survey the pond for frogs, newts and dragonflies to see how they respond to the open water.",
    ]),
    # ------------------------------------------------------------------ a table layout where another cell has more text
    ("table-cell-1", "table_cell", "Repairs to the village hall roof", [
        "The village hall committee has agreed to go ahead with repairs to the roof after rain came through the ceiling of the small meeting room twice this winter.",
        "A builder has quoted for replacing the slipped slates and the rotten timber along the valley gutter. Work should start in April and take about a fortnight, during which the hall will stay open.",
        "The committee is applying for a grant to cover half of the cost and will hold a quiz night to raise the rest.",
    ]),
    ("table-cell-2", "table_cell", "Spring flower show results", [
        "More than two hundred entries were shown at the spring flower show on Saturday, the highest number for many years. The daffodil classes were especially strong after a mild end to the winter.",
        "The cup for the best exhibit in the show went to a first-time entrant for a bowl of miniature narcissi. The children's classes for a garden on a plate and a decorated egg were also well supported.",
    ]),
    # ------------------------------------------------------------------ <br> text in a table cell among other markup
    ("table-br-cell-1", "table_br_cell", "Memories of the old forge", [
        "My grandfather worked at the forge on the green from the age of fourteen until it closed in 1962. He shod the farm horses, mended ploughs and made gates for half the farms in the parish.",
        "As a child I was allowed to work the bellows on Saturday mornings. The smell of the hot iron and the hiss when it went into the water trough are the things I remember most clearly.",
        "The forge is a house now, but the iron ring for tying up horses is still set into the wall beside the door.",
    ]),
    ("table-br-cell-2", "table_br_cell", "Notes from the weather station, February", [
        "February was mild and very wet. Rain fell on twenty-two days, and the total for the month was almost twice the long-term average for the station.",
        "The highest temperature, fourteen degrees, was recorded on the nineteenth, and there were only three air frosts, all of them in the first week.",
        "Strong winds on the twenty-sixth brought down several trees across the lanes to the north of the village. The highest gust measured at the station was fifty-eight miles an hour.",
    ]),
    # ------------------------------------------------------------------ content in CSS-hidden panels (not tabs)
    ("hidden-panels-1", "hidden_panels", "Planting a wildflower meadow", [
        "Turning part of a lawn into a wildflower meadow is easier than many people think, but it takes patience. The most important thing is to reduce the fertility of the soil, because rich soil lets grasses crowd out the flowers.",
        "Start by cutting the grass very short in late summer and raking away the clippings. Then scratch the surface with a rake until about half of it is bare soil.",
        "Sow a mix of native seed in early autumn, scattered by hand and walked in. Sowing yellow rattle with the mix helps, because it weakens the grasses around it.",
        "In the first year, cut the meadow whenever it reaches ankle height. After that, cut it once a year in late summer and take the hay away.",
    ]),
    ("hidden-panels-2", "hidden_panels", "The story of the harbour light", [
        "The first light on the harbour wall was a lantern hung from a wooden post in 1790, paid for by a charge on every ship that unloaded at the quay.",
        "In 1854 it was replaced by the stone tower that still stands today. Its oil lamp was tended by a keeper who lived in the cottage at the landward end of the wall.",
        "The light was converted to electricity in 1931 and has worked automatically since the last keeper retired. It is now looked after by the harbour commissioners.",
        "Visitors can climb the tower on summer weekends, when volunteers from the local history society open it to the public.",
    ]),
    # ------------------------------------------------------------------ title block with its article, a card block after it
    ("cards-after-title-1", "cards_after_title", "Footbridge over the weir reopens", [
        "The footbridge over the weir opened again on Saturday after eighteen months of repairs to its stone piers.",
        "Its new steel deck sits half a metre higher, so the spring floods should no longer close it.",
    ]),
    ("cards-after-title-2", "cards_after_title", "Post office counter moves into the shop", [
        "From next month the post office counter will be inside the village shop, which is open longer hours than the old office.",
        "Parcels, pensions and banking will all still be available, and the counter will have its own entrance from the car park.",
    ]),
    # ------------------------------------------------------------------ short article, no title heading in its container, cards after it
    ("untitled-cards-1", "untitled_cards", "Swimming pool to close for repairs", [
        "The swimming pool will close for six weeks from the end of July while the roof over the main pool is replaced.",
        "Swimming lessons will move to the school pool in the town for the summer, at the usual times.",
    ]),
    ("untitled-cards-2", "untitled_cards", "Bus shelter rebuilt after storm", [
        "The bus shelter at the top of the hill, flattened by the storm in February, has been rebuilt in brick.",
        "The parish council paid for the work and thanks the bus company for lending a temporary shelter.",
    ]),
    # ------------------------------------------------------------------ a related-posts widget classed in one word
    ("related-widget-1", "related_widget", "The library garden opens to readers", [
        "The walled garden behind the library opened to readers on Monday, with benches under the old pear trees and a shelf of books that can be read outside on fine days.",
        "Friends of the library cleared the beds over the winter and planted herbs along the paths. The garden is open whenever the library is, and children's story time will move outdoors in June.",
        "The garden was laid out in the 1890s for the mill owner who gave the library to the town, and for most of the last century it was used to store coal and, later, broken furniture. Old photographs in the local history room helped the volunteers put the paths back where they were.",
        "Readers are asked not to take books from the main library into the garden unless they have borrowed them first, and to leave the gate closed behind them, because the hedgehogs that have moved in under the compost heap are not allowed to wander into the road.",
    ]),
    ("related-widget-2", "related_widget", "A new home for the town band", [
        "After thirty years of rehearsing in a cold scout hut, the town band has moved into the old chapel on Mill Street, which the band bought last year with a grant and a long run of concerts.",
        "The chapel has room for the whole band and an audience of eighty, and its walls are thick enough that the neighbours should not be troubled on practice nights.",
        "Members spent the spring painting the walls, mending the windows and building a low stage from timber given by the builders' merchant. The old pews were sold to pay for new chairs, except for two that now stand by the door for anyone waiting for a lift home.",
        "The band's first concert in its new home will be on the last Saturday of the month, and tickets are on sale at the newsagent. New players of any age are welcome at rehearsals on Tuesday evenings, and the band can lend an instrument to anyone who wants to learn.",
    ]),
    # ------------------------------------------------------------------ a list of sentences, some of them mostly one link
    ("link-items-1", "link_items", "Volunteer work on the canal this month", [
        "It has been a busy month on the canal, and the work party would like to thank everyone who turned out in the rain.",
        "The lock gates at the bottom of the flight were painted on two Saturdays, and the balance beams now have new handrails.",
        "Priya has written up a guide to clearing the overflow weir safely before the winter storms arrive.",
        "The towpath between the two bridges was cut back, and the brambles were taken away to the compost site by the council.",
        "Tom has finished the survey of the old boat weighing machine and sent the results to the trust.",
        "The next work party meets at the top lock at nine on the first Saturday of next month, with tea provided.",
    ]),
    ("link-items-2", "link_items", "What the repair café fixed in May", [
        "Forty-one things came through the door of the repair café in May, and thirty-three of them went home working again.",
        "Two toasters, a lamp and a food mixer were mended at the electrical table, mostly by replacing worn plugs and cables.",
        "Ellen has put together a short guide to sharpening garden shears with a file and an old cork.",
        "The sewing table shortened three pairs of trousers and patched the elbows of a much loved school jumper.",
        "Raj has written an account of bringing a forty-year-old radio back to life with a single new valve.",
        "The café will be closed in August, and will open again on the second Saturday of September at the library.",
    ]),
    # ------------------------------------------------------------------ an article's later paragraphs in a wrapper of their own
    ("split-body-1", "split_body", "The ferry will run all winter", [
        "The ferry across the estuary will keep running through the winter for the first time in twenty years.",
        "Councillors agreed the subsidy on Thursday night, after a petition signed by more than two thousand people was handed in at the town hall.",
        "The service will run every hour from seven in the morning until six in the evening.",
        "Until now the ferry has stopped at the end of October, leaving people on the far shore with a drive of almost an hour, round the head of the estuary and through the town, to reach the station, the surgery or the secondary school.",
        "The operator, a family firm that has run the crossing since 1962, said it would need a second skipper and a heater for the cabin, and that the boat would be taken out of the water for a week in March for its annual inspection.",
        "Parents on the far shore, many of whom have spent the last few winters sharing lifts to the school gate, welcomed the decision, although some said an earlier first crossing would help those who work in the town.",
        "The council will pay the subsidy for two winters, after which it will look at how many passengers used the service, how much the tickets brought in and whether the county can share the cost.",
        "Fares will stay the same, with a discount for season tickets, and bicycles and dogs will still travel free, as they always have, provided there is room on the deck.",
        "The first winter crossings will run from the first Monday in November, weather permitting, and the timetable will be posted at both landing stages and on the council's notice boards.",
        "Anyone with questions about the service can ask at the ticket hut on the quay, which will be open at the same hours as the ferry for the whole of the winter.",
    ]),
    ("split-body-2", "split_body", "Village shop saved by its customers", [
        "The only shop in the village will stay open after its customers raised enough money to buy it.",
        "Margaret Hill, who chaired the meeting that started the appeal, said the response had been beyond anything the committee had hoped for.",
        "More than three hundred people bought shares at twenty pounds each.",
        "The shop had been up for sale for more than a year, and the owners, who are retiring after twenty-six years behind the counter, had warned that it would close at Easter if no buyer came forward, leaving the nearest shop four miles away.",
        "A group of residents formed a community company in the autumn, held two public meetings in the village hall and spent the winter knocking on doors, with a barometer of the money raised painted on a board outside the church.",
        "Along with the shares, the appeal raised money from a grant, a loan from a fund that supports community businesses and a series of quiz nights, coffee mornings and a sponsored walk around the parish boundary.",
        "The shop will be run by a paid manager, with volunteers helping behind the counter and with deliveries to people who cannot easily get out, and any profit will be spent on the shop or on village causes.",
        "The post office counter, the newspaper round and the noticeboard will all carry on as before, and the new company hopes to add a small café in the back room once the building work is done.",
        "Shareholders will meet once a year to elect the committee, and each of them has one vote, however many shares they bought, so the shop will belong to the village as a whole.",
        "The handover is planned for the first week of April, and the shop will close for two days while the stock is counted and the new tills are put in.",
    ]),
    # ------------------------------------------------------------------ the article's later paragraphs in a "Read more" wrapper
    ("read-more-1", "read_more", "Library to open on Sunday afternoons", [
        "The town library will open on Sunday afternoons from next month, after a trial over the summer drew more visitors than any weekday.",
        "Staff counted almost four hundred people through the doors on each of the eight trial Sundays, many of them families with young children.",
        "The extra hours will be covered by two new part-time posts and a rota of volunteers from the friends of the library group.",
        "The library board had been asked for Sunday opening for years, but until this spring it had no money to pay for the staff or the heating, and the building was closed from Saturday lunchtime until Monday morning.",
        "A grant from the county's community fund paid for the trial, and a survey of the people who came showed that most of them could not visit during the week because of work or school.",
        "The children's corner was the busiest part of the building, with story sessions at two and three o'clock that were full on every one of the trial afternoons.",
        "The computers, the local history room and the reading tables will all be open, but the counter will not take payments for printing or for lost books on a Sunday.",
        "The board will look again at the hours in a year, when it has the figures for the winter months, which it expects to be quieter than the summer.",
    ]),
    ("read-more-2", "read_more", "Bus route to the hospital restored", [
        "The bus route that links the villages on the north side of the valley to the hospital will run again from Monday.",
        "It was cut in the spring when the company that ran it lost its driver, and patients have since relied on taxis and lifts from neighbours.",
        "The new operator will run four buses a day in each direction, on weekdays only, starting at half past seven in the morning.",
        "A group of patients and parish councillors wrote to the county in the summer with a list of more than sixty people who had missed appointments, or paid for a taxi they could not afford, since the route was cut.",
        "The county agreed to pay for the service out of its transport budget until the end of next year, and the hospital has offered to move some clinic times so that they fit the bus timetable.",
        "The buses will stop outside the main entrance of the hospital, where a new shelter is being built, and at the post office, the school and the crossroads in each village on the way.",
        "Concession passes will be accepted on every journey, and a day ticket will cost the same as it did before the route was cut, although single fares will go up by twenty pence.",
        "The timetable will be posted at every stop on the route this weekend, and printed copies can be picked up at the hospital reception and at the parish council offices.",
    ]),
    # ------------------------------------------------------------------ an article written as sections, some of one short paragraph
    ("sections-1", "sections", "What the flood taught the valley", [
        "The water came up faster than anyone on the lower road could remember, and by midnight the bridge was closed.",
        "Families on the far bank were cut off for two days, with the power out and the phone mast on the hill running on its batteries, until a boat from the rescue station reached them.",
        "Most of them had moved their furniture upstairs, as they had been told to, and most of them said afterwards that they would do the same again, whatever the forecast said.",
        "Then the questions started, and they have not stopped since.",
        "The drains under the lower road were built for a village of forty houses, and there are now more than two hundred, most of them on land that used to soak up the rain before it reached the river.",
        "The council's own report, written after the last flood, said the drains should be doubled in size, but the money was spent on the new roundabout instead, and the report was never discussed in public.",
        "The farmers upstream say the ditches along their fields were cleared in the autumn, as they are every year, and that the water came off the moor, where the peat has been drying out for a decade.",
        "The water company says its pumping station worked as it should, although residents filmed it standing idle for most of the night, with water running over the wall beside it into the lane.",
        "The river authority says it will look at the whole valley, from the moor to the estuary, and that any answer will take years, cost millions and need the agreement of landowners, the council and the water company.",
        "Residents say they have heard that before, at the public meeting after the last flood, and at the one before that, and that what they want is a date, a plan and a name to call when the water rises.",
        "The insurers have sent assessors, the council has sent skips, and the volunteers at the village hall have sent soup, dry socks and a list of builders who will not charge for a quote.",
        "Nobody has yet said who will pay for any of it.",
        "The parish council will hold a meeting in the village hall next Thursday, and has invited the council, the river authority and the water company to answer questions from residents.",
        "Anyone who cannot attend can send questions in writing to the parish clerk before Tuesday, and the answers will be printed in the parish newsletter and posted on the noticeboard outside the shop.",
    ]),
    ("sections-2", "sections", "A year of the community orchard", [
        "A year ago the field behind the school was rough grass, a broken fence and a sign saying private land.",
        "Today it holds sixty young fruit trees, a hedge of hazel and hawthorn, two benches made from a fallen oak and a shed that the scouts built over three weekends in the spring.",
        "The trees were planted by more than a hundred volunteers on one cold Saturday in February, each of them given a spade, a stake and a tree with a label naming the family that paid for it.",
        "Not everything went to plan, as the group admits.",
        "Rabbits ate the bark off a dozen of the trees in the first month, before the guards went on, and a dry spell in May meant that the watering rota, which had started as a pleasant evening stroll, became a daily chore.",
        "The pear trees, which were planted at the bottom of the slope, sat in water all winter and three of them did not come into leaf, so they will be moved to higher ground in the autumn, at the end of the first season.",
        "The apples did better than anyone expected, and the oldest of them, grafted from a tree that grew in the churchyard until the storm of 1987, carried a handful of fruit in its very first summer.",
        "The school uses the orchard every week, for science lessons, for art and for a reading club that meets on the benches when the weather allows, and the children have named every tree.",
        "The group that runs it meets on the first Sunday of the month to prune, mow the paths and mend whatever the winter has broken, and new helpers, of any age and with any skill, are always welcome.",
        "The landowner, who lent the field for ten years at a rent of one apple a year, came to the first harvest and said that he had never been paid so well, or so promptly, in his life.",
        "An apple day is planned for October, with juice pressed on the spot, a competition for the best apple cake and a stall selling young trees grafted from the orchard's own varieties.",
        "Everyone is invited, and entry is free of charge.",
        "The money raised will pay for the guards, the stakes and the water butts, and for a second hedge along the lane, which the parish council has agreed to plant with the orchard group next winter.",
        "The group also hopes to plant a row of plums along the top of the field and to build a small pond at the bottom, where the pears stood in water, for the frogs and the dragonflies.",
    ]),
    # ------------------------------------------------------------------ hover cards (issue 35, sixth round)
    ("hover-cards-1", "hover_cards", "Ferry timetable to change in the spring", [
        "The ferry across the estuary will run every half hour instead of every twenty minutes from the first of April, the operator announced on Monday, after a winter in which the boat often crossed almost empty.",
        "Alan Pryce backed the change.",
        "Commuters who take the early boat to the station say the new times will leave them waiting on the slipway for up to twenty minutes in the morning, and some have started a petition asking for the old timetable to be kept until the summer.",
        "Helen Marsh, who runs the cafe at the landing stage, said that her trade depends on the people waiting for the boat and that a quieter timetable would cost her more than it saved the operator, at least in the months before the tourists arrive.",
        "The operator says the timetable will be looked at again in October, when it has a full summer of passenger figures, and that the late boat on Friday and Saturday nights will not change.",
    ]),
    ("hover-cards-2", "hover_cards", "School wins grant for its wildlife garden", [
        "The primary school has won a grant of two thousand pounds from the county's environment fund to turn the corner of its playing field into a garden for bees, butterflies and birds.",
        "Priya Shah thanked the parents.",
        "The money will pay for a pond, a wooden bird hide, a hedge of native shrubs and a packet of wildflower seed large enough to cover the whole bank beside the car park, which is mown every fortnight at present.",
        "Tom Ellery, whose class will look after the pond, said the children had already chosen names for the frogs they expect to arrive, and that the hide would be used for drawing lessons as well as for watching birds.",
        "Work will start in the Easter holidays, and the school is asking for volunteers with spades, wheelbarrows and a free Saturday to help dig the pond and plant the hedge.",
    ]),
    # ------------------------------------------------------------------ a wiki's cross-references (issue 35, ninth round)
    ("cross-references-1", "cross_references", "Valley railway", [
        "The valley railway is a heritage line of standard gauge that runs for nine miles from the junction at Northfield to the quarry village at its head, following the river for most of the way.",
        "It carried stone, coal and passengers for ninety years, closed in the sixties and was reopened, a mile at a time, by a society of volunteers who bought the trackbed from the county.",
        "History",
        "The line was built by the quarry company to take stone down to the main line, and a passenger service was added two years after it opened, when the villages along the river asked for one.",
        "Traffic fell after the quarry closed, and the last train ran on a wet Saturday in October, watched by most of the valley from the bridges and the station platforms.",
        "Stations",
        "There are five stations on the line, of which three keep their original buildings; the other two were rebuilt by the society from drawings found in the company's papers.",
        "The station at the head of the valley has a small museum of the quarry's tools and wagons, open on running days.",
        "Rolling stock",
        "The society owns four steam locomotives, two of which worked on the line in its first life, and a set of carriages restored from bodies found in use as garden sheds across the county.",
    ]),
    ("cross-references-2", "cross_references", "Harbour lighthouse", [
        "The harbour lighthouse stands at the end of the north pier and has guided boats into the harbour for nearly two hundred years, first with oil lamps and now with a small electric light.",
        "Architecture",
        "The tower is built of local granite, forty feet high and painted white above a black base, with a gallery and a lantern room reached by a spiral stair of sixty-one steps.",
        "The keeper's cottage at its foot is now a cafe, and the old fog bell hangs in the garden behind it.",
        "Keepers",
        "Seven families kept the light before it was automated, and the last keeper, who served for thirty-one years, wrote a memoir of storms, wrecks and rescues that the town library still lends.",
        "The keepers were paid by the harbour board and grew their own vegetables on the allotment behind the pier, which the cafe still uses for its salads.",
        "Restoration",
        "The lantern was restored ten years ago with money raised by the town, and the tower is opened to visitors on summer weekends, weather allowing.",
    ]),
]
