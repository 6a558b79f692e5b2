const fs=require('fs');const f=fs.readdirSync('.').filter(x=>x.endsWith('.cpuprofile')).map(x=>[x,fs.statSync(x).size]).sort((a,b)=>b[1]-a[1]);
for (const [file] of f.slice(0,1)) { const p=JSON.parse(fs.readFileSync(file));
const self=new Map(); const dt=p.timeDeltas; const idIdx=new Map(p.nodes.map((n,i)=>[n.id,n]));
const cnt=new Map(); p.samples.forEach((s,i)=>cnt.set(s,(cnt.get(s)||0)+(dt[i]||0)));
for (const [id,t] of cnt){const n=idIdx.get(id);const k=n.callFrame.functionName+' '+n.callFrame.url.split('/').slice(-2).join('/')+':'+n.callFrame.lineNumber;self.set(k,(self.get(k)||0)+t);}
console.log(file,[...self].sort((a,b)=>b[1]-a[1]).slice(0,25).map(([k,t])=>(t/1000).toFixed(0)+'ms '+k).join('\n'));}
