// cardfeed serve: the placements' preview page (/_cardfeed/placements/). The few lines
// docs/embedding.md gives a host: each frame takes the height its page posts.
addEventListener("message", function (event) {
  if (event.origin !== location.origin || !event.data || event.data.type !== "cardfeed:height") return;
  var frames = document.querySelectorAll("iframe[data-cardfeed]");
  for (var i = 0; i < frames.length; i++) {
    if (frames[i].getAttribute("data-cardfeed") === event.data.placement) frames[i].style.height = event.data.height + "px";
  }
});
